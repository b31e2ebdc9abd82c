// --fit: a photo over the size limit is recompressed into a temporary copy that fits; the original is never touched.
// Phones produce 3 to 8 MB photos, so this is the common case, and the copy must stay good evidence: the long edge
// shrinks only when quality steps alone cannot make it fit, EXIF orientation is applied to the pixels (the copy
// carries no metadata, so a viewer could not rotate it otherwise), and GPS and all other metadata are dropped.
// A PNG stays PNG unless it cannot fit at a useful size; then it becomes a JPEG and the output says so.
// sharp is a native module: it is loaded here, lazily, only when --fit (or a .png preview) needs it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sharp } from "sharp";
import { REPORT } from "../contract/index.js";
import { EXTENSIONS, type Photo, type PhotoType, type Problem } from "./report-types.js";

/** JPEG qualities tried at full size, best first; below the last one, shrinking keeps more detail than quality. */
export const JPEG_QUALITY_STEPS = [90, 82, 75] as const;
/** Quality used while shrinking. */
const SHRINK_QUALITY = 82;
/** A PNG that cannot fit at this long edge (or its own, if smaller) becomes a JPEG. */
export const PNG_MIN_LONG_EDGE = 2048;
/** Below this long edge a photo is no longer useful evidence: give up and say so. */
export const MIN_LONG_EDGE = 800;
/** Aim a little under the limit when shrinking, so one more step rarely needed. */
const SHRINK_MARGIN = 0.92;

type SharpFactory = typeof import("sharp");

let sharpModule: Promise<SharpFactory> | undefined;
export function loadSharp(): Promise<SharpFactory> {
  sharpModule ??= import("sharp").then((m) => {
    const factory = (m as unknown as { default?: SharpFactory }).default ?? (m as unknown as SharpFactory);
    // A CLI processes each photo once: libvips' operation cache would only hold memory.
    factory.cache(false);
    return factory;
  });
  return sharpModule;
}

export interface FitWorkspace {
  dir: string;
  dispose(): Promise<void>;
}

/** A private temporary folder for the fitted copies, removed when the command ends. */
export async function createFitWorkspace(): Promise<FitWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), "shipctl-fit-"));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

export type FitResult = { ok: true; photo: Photo; convertedFrom?: PhotoType } | { ok: false; problem: Problem };

interface Attempt {
  type: PhotoType;
  longEdge: number;
  quality?: number;
}

/** `signal`: a stopping run ends the work before its next encoding (prepare-reports.ts stops waiting at once). */
export async function fitPhoto(photo: Photo, dir: string, maxBytes: number = REPORT.photoMaxBytes, signal?: AbortSignal): Promise<FitResult> {
  const sharp = await loadSharp();
  const meta = await sharp(photo.path, { failOn: "error" }).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? photo.width;
  const height = (swap ? meta.width : meta.height) ?? photo.height;
  const longEdge = Math.max(width, height);

  const encode = async (a: Attempt) => {
    let pipeline: Sharp = sharp(photo.path, { failOn: "error" }).rotate();
    if (a.longEdge < longEdge) pipeline = pipeline.resize({ width: a.longEdge, height: a.longEdge, fit: "inside", withoutEnlargement: true });
    if (a.type === "jpeg") {
      // JPEG has no transparency: flatten onto white rather than let it turn black.
      if (photo.type === "png") pipeline = pipeline.flatten({ background: "#ffffff" });
      pipeline = pipeline.jpeg({ quality: a.quality ?? SHRINK_QUALITY, chromaSubsampling: "4:2:0" });
    } else {
      pipeline = pipeline.png({ compressionLevel: 9, adaptiveFiltering: true });
    }
    return pipeline.toBuffer({ resolveWithObject: true });
  };

  let best: { data: Buffer; info: { width: number; height: number }; attempt: Attempt } | undefined;
  const tryAttempt = async (a: Attempt) => {
    signal?.throwIfAborted();
    const out = await encode(a);
    if (out.data.length <= maxBytes) best = { data: out.data, info: out.info, attempt: a };
    return out.data.length;
  };

  if (photo.type === "png") {
    // Shrink as PNG, but not below the floor: past it the photo is better served as a JPEG at a larger size.
    const floor = Math.min(longEdge, PNG_MIN_LONG_EDGE);
    let edge = longEdge;
    let size = await tryAttempt({ type: "png", longEdge: edge });
    while (!best && edge > floor) {
      edge = Math.max(floor, shrunk(edge, size, maxBytes));
      size = await tryAttempt({ type: "png", longEdge: edge });
    }
  }
  if (!best) {
    let size = Infinity;
    for (const quality of JPEG_QUALITY_STEPS) {
      size = await tryAttempt({ type: "jpeg", longEdge, quality });
      if (best) break;
    }
    let edge = longEdge;
    while (!best) {
      edge = shrunk(edge, size, maxBytes);
      if (edge < MIN_LONG_EDGE) {
        return {
          ok: false,
          problem: {
            file: photo.file,
            problem: `cannot be made to fit ${maxBytes.toLocaleString("en-US")} bytes without shrinking it below ${MIN_LONG_EDGE} pixels`,
            fix: "export a smaller JPEG from a photo app and use that file",
          },
        };
      }
      size = await tryAttempt({ type: "jpeg", longEdge: edge, quality: SHRINK_QUALITY });
    }
  }
  const { data, info, attempt } = best!;
  const path = join(dir, `${photo.group}-${photo.side}.${EXTENSIONS[attempt.type]}`);
  await writeFile(path, data, { mode: 0o600 });
  return {
    ok: true,
    photo: {
      ...photo,
      path,
      type: attempt.type,
      bytes: data.length,
      width: info.width,
      height: info.height,
      fitted: { fromBytes: photo.bytes, fromType: photo.type, fromWidth: width, fromHeight: height, quality: attempt.quality },
    },
    convertedFrom: attempt.type !== photo.type ? photo.type : undefined,
  };
}

/** Encoded size scales roughly with pixel count, so the edge scales with the square root of the size ratio. */
function shrunk(edge: number, size: number, maxBytes: number): number {
  const ratio = Math.sqrt(maxBytes / size) * SHRINK_MARGIN;
  return Math.floor(edge * Math.min(ratio, 0.9));
}
