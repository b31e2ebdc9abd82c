// --fit: a photo over the size rule (REPORT.photoSafeBytes, within either reading of "1 MB") becomes a temporary copy
// that fits; the original is never touched. Phones produce 3 to 8 MB photos, so this is the common case, and the copy
// must stay good evidence, so the least destructive step that fits wins:
// 1. metadata only: when the photo is over only because of what rides along (an XMP depth map, a Motion Photo's video,
//    a 900 KB ICC profile), that is dropped byte for byte, pixels untouched (photo-metadata.ts);
// 2. quality steps at full size;
// 3. the largest long edge that fits at SHRINK_QUALITY, searched (to within 1%), not guessed.
// A recompressed copy is upright (orientation applied to the pixels) and keeps the original's EXIF: the capture date,
// which is evidence, and the GPS position exactly as the original has it, unless --strip-location removes it.
// A PNG stays PNG unless it cannot fit at a useful size; then it becomes a JPEG and the output says so.
// sharp is a native module: loaded by sharp-module.ts, only by the report workflows.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sharp } from "sharp";
import { REPORT } from "../contract/index.js";
import { slimMetadata, stripLocation } from "./photo-metadata.js";
import { EXTENSIONS, type Photo, type PhotoType, type Problem } from "./report-types.js";
import { formatBytes } from "./wording.js";
import { loadSharp } from "./sharp-module.js";

/** JPEG qualities tried at full size, best first; below the last one, shrinking keeps more detail than quality. */
export const JPEG_QUALITY_STEPS = [90, 82, 75] as const;
/** Quality used while shrinking. */
const SHRINK_QUALITY = 82;
/** A PNG that cannot fit at this long edge (or its own, if smaller) becomes a JPEG. */
export const PNG_MIN_LONG_EDGE = 2048;
/** Below this long edge a photo is no longer useful evidence: give up and say so. */
export const MIN_LONG_EDGE = 800;
/** A full-size encoding this many times over the limit will not fit at a lower quality step either: shrink. */
const QUALITY_STEP_REACH = 2;

export interface FitWorkspace {
  dir: string;
  /** One folder per shipment inside it, made on first use: fitted copies of different reports share names. */
  dirFor(shipmentId: number): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * A private temporary folder for the fitted copies, removed when the command ends. After a Ctrl-C, the copies under
 * way are still being written while it is removed (a fit stops only before its next encoding): the removal tries
 * again as they finish, and never fails the command. Failing it turned the stop's own message into a bare
 * "Interrupted." (exit 130 from an ENOTEMPTY).
 */
export async function createFitWorkspace(): Promise<FitWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), "shipctl-fit-"));
  const dirs = new Map<number, Promise<string>>();
  const dirFor = (shipmentId: number) => {
    const path = join(dir, String(shipmentId));
    if (!dirs.has(shipmentId)) dirs.set(shipmentId, mkdir(path, { recursive: true }).then(() => path));
    return dirs.get(shipmentId)!;
  };
  return { dir, dirFor, dispose: () => rm(dir, { recursive: true, force: true, maxRetries: 5 }).catch(() => undefined) };
}

/** `cached`: the copy an earlier run made of the same photo under the same rules (fit-cache.ts). */
export type FitResult = { ok: true; photo: Photo; cached?: boolean } | { ok: false; problem: Problem };

interface Attempt {
  type: PhotoType;
  longEdge: number;
  quality?: number;
}

/**
 * The copy of `photo` that fits `maxBytes` with the least lost (see the top of this file). `signal`: a stopping run
 * ends the work before its next encoding (prepare-reports.ts stops waiting at once). `stripLocation` (--strip-location):
 * the copy carries no GPS position, whatever the original has.
 */
export async function fitPhoto(
  photo: Photo,
  dir: string,
  maxBytes: number = REPORT.photoSafeBytes,
  signal?: AbortSignal,
  options: { stripLocation?: boolean } = {},
): Promise<FitResult> {
  const original = await readFile(photo.path);
  const located = options.stripLocation ? stripLocation(original, photo.type) : { data: original, stripped: false };
  for (const keepIcc of [true, false]) {
    const slim = slimMetadata(located.data, photo.type, keepIcc);
    if (slim.data.length <= maxBytes) {
      // Already within the limit (a caller's mistake, or a limit of its own): nothing to drop, nothing to copy.
      if (slim.dropped.length === 0 && !located.stripped) return { ok: true, photo };
      const path = await writeCopy(dir, photo, photo.type, slim.data);
      const fitted = { fromBytes: photo.bytes, fromType: photo.type, fromWidth: photo.width, fromHeight: photo.height, dropped: slim.dropped };
      return { ok: true, photo: { ...photo, path, bytes: slim.data.length, fitted, locationStripped: located.stripped || undefined } };
    }
  }

  const sharp = await loadSharp();
  const meta = await sharp(photo.path, { failOn: "error" }).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? photo.width;
  const height = (swap ? meta.width : meta.height) ?? photo.height;
  const longEdge = Math.max(width, height);

  const encode = async (a: Attempt) => {
    // keepExif after rotate(): sharp writes the EXIF back with the orientation reset, so the copy is upright
    // everywhere and keeps the capture date (and the position, as the original has it).
    let pipeline: Sharp = sharp(photo.path, { failOn: "error" }).rotate().keepExif();
    if (a.longEdge < longEdge) pipeline = pipeline.resize({ width: a.longEdge, height: a.longEdge, fit: "inside", withoutEnlargement: true });
    if (a.type === "jpeg") {
      // JPEG has no transparency: flatten onto white rather than let it turn black.
      if (photo.type === "png") pipeline = pipeline.flatten({ background: "#ffffff" });
      pipeline = pipeline.jpeg({ quality: a.quality ?? SHRINK_QUALITY, chromaSubsampling: "4:2:0" });
    } else {
      pipeline = pipeline.png({ compressionLevel: 9, adaptiveFiltering: true });
    }
    const out = await pipeline.toBuffer({ resolveWithObject: true });
    // Removing GPS from EXIF leaves its length unchanged, so the size measured is the size sent.
    return options.stripLocation ? { ...out, data: stripLocation(out.data, a.type).data } : out;
  };

  let best: { data: Buffer; info: { width: number; height: number }; attempt: Attempt } | undefined;
  const tryAttempt = async (a: Attempt) => {
    signal?.throwIfAborted();
    const out = await encode(a);
    // Attempts only grow once one fits (see largestFitting), so the last that fits is the largest.
    if (out.data.length <= maxBytes) best = { data: out.data, info: out.info, attempt: a };
    return out.data.length;
  };

  if (photo.type === "png") {
    // Shrink as PNG, but not below the floor: past it the photo is better served as a JPEG at a larger size.
    const floor = Math.min(longEdge, PNG_MIN_LONG_EDGE);
    const size = await tryAttempt({ type: "png", longEdge });
    if (!best) await largestFitting(longEdge, size, floor, maxBytes, (edge) => tryAttempt({ type: "png", longEdge: edge }));
  }
  if (!best) {
    let size = Infinity;
    for (const quality of JPEG_QUALITY_STEPS) {
      size = await tryAttempt({ type: "jpeg", longEdge, quality });
      if (best || size > maxBytes * QUALITY_STEP_REACH) break;
    }
    if (!best) {
      const fits = await largestFitting(longEdge, size, MIN_LONG_EDGE, maxBytes, (edge) => tryAttempt({ type: "jpeg", longEdge: edge, quality: SHRINK_QUALITY }));
      if (!fits) {
        return {
          ok: false,
          problem: {
            file: photo.file,
            problem: `cannot be made to fit ${maxBytes.toLocaleString("en-US")} bytes without shrinking it below ${MIN_LONG_EDGE} pixels`,
            fix: "export a smaller JPEG from a photo app and use that file",
          },
        };
      }
    }
  }
  const { data, info, attempt } = best!;
  const path = await writeCopy(dir, photo, attempt.type, data);
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
      locationStripped: (options.stripLocation && stripLocation(original, photo.type).stripped) || undefined,
    },
  };
}

/** One line for the output: what --fit (and --strip-location) did to a photo. */
export function describeFit(photo: Photo): string {
  const f = photo.fitted;
  const location = photo.locationStripped ? "; GPS position removed" : "";
  if (!f) return "GPS position removed (pixels and other metadata unchanged)";
  if (f.dropped) return `${formatBytes(f.fromBytes)} -> ${formatBytes(photo.bytes)} by dropping ${f.dropped.join(", ")} (pixels unchanged)${location}`;
  const dims = f.fromWidth !== photo.width || f.fromHeight !== photo.height ? `, ${f.fromWidth}x${f.fromHeight} -> ${photo.width}x${photo.height}` : "";
  const converted = f.fromType !== photo.type ? ` (converted from ${f.fromType.toUpperCase()} to JPEG: as PNG it could not fit)` : "";
  return `${formatBytes(f.fromBytes)} -> ${formatBytes(photo.bytes)}${dims}${f.quality ? `, JPEG quality ${f.quality}` : ""}${converted}${location}`;
}

export async function writeCopy(dir: string, photo: Photo, type: PhotoType, data: Buffer): Promise<string> {
  const path = join(dir, `${photo.group}-${photo.side}.${EXTENSIONS[type]}`);
  await writeFile(path, data, { mode: 0o600 });
  return path;
}

/**
 * Finds the largest long edge below `top` (whose encoding measured `topSize`) that fits, to within 1%: a first
 * guess from the size ratio (encoded size grows with the pixel count, so the edge with its square root), then
 * bisection between the largest edge known to fit and the smallest known not to. False when even `floor` does not fit.
 */
async function largestFitting(top: number, topSize: number, floor: number, maxBytes: number, attempt: (edge: number) => Promise<number>): Promise<boolean> {
  let hi = top;
  let hiSize = topSize;
  let lo = 0;
  while (lo === 0) {
    if (hi <= floor) return false;
    const edge = Math.max(floor, Math.min(hi - 1, Math.floor(hi * Math.sqrt(maxBytes / hiSize) * 0.98)));
    const size = await attempt(edge);
    if (size <= maxBytes) lo = edge;
    else [hi, hiSize] = [edge, size];
  }
  while (hi - lo > Math.max(1, Math.floor(lo / 100))) {
    const edge = Math.floor((lo + hi) / 2);
    if ((await attempt(edge)) <= maxBytes) lo = edge;
    else hi = edge;
  }
  return true;
}
