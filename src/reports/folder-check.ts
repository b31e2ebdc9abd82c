// Checks one report folder before anything is sent, and lists every problem at once (a report with photos in the
// wrong order is worse than none, and an operator fixing a folder wants the whole list, not one problem per run).
// A photo passes when its slot has exactly one file, that file is a readable JPEG or PNG by content, and it fits
// the size limit (or --fit will make it fit).
import { createHash } from "node:crypto";
import { open, readFile } from "node:fs/promises";
import { extname } from "node:path";
import { REPORT } from "../contract/index.js";
import { discoverPhotos, listNames } from "./discover.js";
import { exactBytes, formatBytes } from "./wording.js";
import { slotKey, uploadOrder } from "./side-names.js";
import { inspectFile, type OtherFormat, type Sniffed } from "./photo-sniff.js";
import type { Photo, PhotoType, Problem } from "./report-types.js";

export interface CheckOptions {
  byOrder?: boolean;
  /** Photos over REPORT.photoSafeBytes are not problems or notes: --fit will send a copy that fits. */
  fit?: boolean;
}

export interface FolderCheck {
  /** The 12 photos in upload order; complete only when `problems` is empty. */
  photos: Photo[];
  problems: Problem[];
  /** Worth saying, not worth stopping for. */
  warnings: Problem[];
  /** Photos over REPORT.photoSafeBytes that --fit must fit (subset of `photos`). */
  oversized: Photo[];
}

export async function checkFolder(folder: string, options: CheckOptions = {}): Promise<FolderCheck> {
  const found = await discoverPhotos(folder, { byOrder: options.byOrder });
  const result: FolderCheck = { photos: [], problems: [...found.problems], warnings: [], oversized: [] };
  if (!found.readable) return result;
  const missing: string[] = [];
  const checks = uploadOrder().map(async (slot) => {
    const candidates = found.candidates.get(slotKey(slot)) ?? [];
    if (candidates.length === 0) {
      missing.push(`${slot.group} ${slot.side}`);
      return;
    }
    if (candidates.length > 1) {
      result.problems.push({
        file: candidates.map((c) => c.file).join(", "),
        problem: `${candidates.length} photos for ${slot.group} ${slot.side}`,
        fix: "keep exactly one photo per side: remove or rename the others",
      });
      return;
    }
    const { file, path, refused } = candidates[0]!;
    if (refused) {
      result.problems.push(refused);
      return;
    }
    const sniffed = await inspectPhoto(file, path, result.problems);
    if (!sniffed) return;
    const photo: Photo = { ...slot, path, file, type: sniffed.type, bytes: sniffed.size, width: sniffed.width, height: sniffed.height };
    result.photos.push(photo);
    if (misnamed(file, sniffed.type)) {
      result.warnings.push({ file, problem: `is a ${sniffed.type.toUpperCase()} file despite its name`, fix: `it will be sent as ${sniffed.type.toUpperCase()}` });
    }
    sizeVerdict(photo, Boolean(options.fit), result);
  });
  await Promise.all(checks);
  if (missing.length > 0) {
    // The photos that took no side are most likely the ones meant for the missing sides: what is wrong with them is
    // listed now, not after the operator has renamed or moved them.
    await Promise.all(found.unplaced.map((f) => checkUnplaced(f, Boolean(options.fit), result)));
    if (!options.byOrder) result.problems.push(missingProblem(missing, found.unrecognised, found.otherFolders));
  } else if (found.unrecognised.length > 0) {
    result.warnings.push({ file: found.unrecognised.join(", "), problem: "ignored (these names do not say a group and side)", fix: "" });
  }
  result.problems.push(...(await samePhotoProblems(result.photos)));
  const order = uploadOrder().map(slotKey);
  result.photos.sort((a, b) => order.indexOf(slotKey(a)) - order.indexOf(slotKey(b)));
  result.problems.sort((a, b) => a.file.localeCompare(b.file));
  return result;
}

/**
 * A photo the system will not let shipctl read (no read permission, a file gone since the folder was listed): a
 * problem of that file, listed with the others. An error that is not the file system's is a bug, and is thrown.
 */
export function unreadableProblem(file: string, err: unknown): Problem {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") throw err;
  if (code === "EACCES" || code === "EPERM") {
    return { file, problem: `cannot be read: permission denied (${code})`, fix: "give yourself read permission on it (for example chmod u+r), or copy the photo into the folder again" };
  }
  if (code === "ENOENT") return { file, problem: "disappeared while the folder was being checked", fix: "put the photo back, then run again" };
  if (code === "EISDIR") return { file, problem: "a folder, not a photo", fix: "put the photo file in its place" };
  return { file, problem: `cannot be read (${code}: ${(err as Error).message})`, fix: "check the file and the disk it is on, or copy the photo again" };
}

/**
 * The one size rule (REPORT.photoSafeBytes): with --fit, every photo above it is fitted, so nothing sent can be
 * refused under either reading of "1 MB". Without --fit, a photo above the assumed limit (photoMaxBytes) is refused,
 * and one between the two is sent as it is with a note: refusing it would block photos the service most likely
 * takes, and the note names --fit, which handles exactly these.
 */
function sizeVerdict(photo: Photo, fit: boolean, result: FolderCheck): void {
  if (photo.bytes <= REPORT.photoSafeBytes) return;
  if (fit) result.oversized.push(photo);
  else if (photo.bytes > REPORT.photoMaxBytes) result.problems.push(tooLarge(photo.file, photo.bytes));
  else {
    result.warnings.push({
      kind: "near-limit",
      file: photo.file,
      problem: `${exactBytes(photo.bytes)}: within the ${exactBytes(REPORT.photoMaxBytes)} limit, but over ${exactBytes(REPORT.photoSafeBytes)}`,
      fix: "a service that reads 1 MB as 1,000,000 bytes would refuse it; --fit sends a copy of at most 1,000,000 bytes",
    });
  }
}

/** A file that took no side: its type and size problems, so that one run names everything to fix. */
async function checkUnplaced(entry: { file: string; path: string }, fit: boolean, result: FolderCheck): Promise<void> {
  const sniffed = await inspectPhoto(entry.file, entry.path, result.problems);
  if (sniffed && sniffed.size > REPORT.photoMaxBytes && !fit) result.problems.push(tooLarge(entry.file, sniffed.size));
}

/** The photo's type, pixels and size; undefined when it cannot be sent as a JPEG or PNG (its problem is listed). */
async function inspectPhoto(file: string, path: string, problems: Problem[]) {
  try {
    const { sniffed, size } = await inspectFile(path);
    const problem = typeProblem(file, sniffed);
    if (problem) problems.push(problem);
    return sniffed.kind === "photo" ? { ...sniffed, size } : undefined;
  } catch (err) {
    problems.push(unreadableProblem(file, err));
    return undefined;
  }
}

function tooLarge(file: string, bytes: number): Problem {
  return {
    file,
    problem: `${formatBytes(bytes)} (${exactBytes(bytes)}), over the ${exactBytes(REPORT.photoMaxBytes)} limit`,
    fix: "pass --fit to send a copy of at most 1,000,000 bytes (the original is left untouched), or export it smaller",
  };
}

function missingProblem(missing: string[], unrecognised: string[], otherFolders: string[]): Problem {
  const names = missing.map((m) => m.replace(" ", "/")).join(", ");
  let fix = `add one photo per missing side, named like box/front.jpg or box-front.jpg`;
  if (unrecognised.length > 0) {
    fix +=
      `; these files name no side: ${listNames(unrecognised)} (rename them, or use --by-order: the 12 photos in name order, ` +
      "the first 6 the box and the next 6 the art, or box/ and art/ folders of 6 each)";
  }
  // An unzipped export often puts the photos a folder deeper (1234/1234-export/box/front.jpg).
  if (otherFolders.length > 0) {
    fix += `; only box/ and art/ are looked into, not these subfolders: ${listNames(otherFolders)} (if the photos are in one, give that folder)`;
  }
  return { file: names, problem: `missing (no photo for ${missing.length === 1 ? "this side" : `these ${missing.length} sides`})`, fix };
}

const NAMES_OF: Record<PhotoType, readonly string[]> = { jpeg: [".jpg", ".jpeg", ".jpe", ".jfif"], png: [".png"] };

/** The name says another type than the content (a PNG named .jpg, a JPEG named .HEIC); a name without one says none. */
function misnamed(file: string, type: PhotoType): boolean {
  const ext = extname(file).toLowerCase();
  return ext !== "" && !NAMES_OF[type].includes(ext);
}

const EXPORT_JPEG = "export it as JPEG (most photo apps: File > Export or Share > Save as JPEG)";

const OTHER_FORMATS: Record<OtherFormat, { what: string; fix: string }> = {
  heic: {
    what: "a HEIC/HEIF photo (the iPhone's default format), not JPEG or PNG",
    fix: `${EXPORT_JPEG}; on a Mac, Preview > File > Export > JPEG; on the iPhone, Settings > Camera > Formats > Most Compatible shoots JPEG`,
  },
  avif: { what: "an AVIF image, not JPEG or PNG", fix: EXPORT_JPEG },
  webp: { what: "a WebP image, not JPEG or PNG", fix: `${EXPORT_JPEG} or PNG` },
  tiff: { what: "a TIFF (or camera RAW) image, not JPEG or PNG", fix: EXPORT_JPEG },
  gif: { what: "a GIF image, not JPEG or PNG", fix: "export it as PNG or JPEG" },
  bmp: { what: "a BMP image, not JPEG or PNG", fix: "export it as PNG or JPEG" },
  pdf: { what: "a PDF document, not a photo", fix: "export the page as JPEG, or use the original photo" },
  video: { what: "a video (or other ISO media file), not a photo", fix: "take a still photo, or export a frame as JPEG" },
};

/** What is wrong with the file's content, or undefined when it is a readable JPEG or PNG. */
export function typeProblem(file: string, sniffed: Sniffed): Problem | undefined {
  switch (sniffed.kind) {
    case "photo":
      return undefined;
    case "other":
      return { file, problem: OTHER_FORMATS[sniffed.format].what, fix: OTHER_FORMATS[sniffed.format].fix };
    case "truncated":
      return {
        file,
        problem: `a truncated ${sniffed.type.toUpperCase()} (${sniffed.detail})`,
        fix: "copy it again from the camera, phone or cloud (the copy was cut short)",
      };
    case "corrupt":
      return { file, problem: `a damaged ${sniffed.type.toUpperCase()} (${sniffed.detail})`, fix: `open it in a photo app and ${EXPORT_JPEG.replace("export it", "export it again")}` };
    case "empty":
      return { file, problem: "empty (0 bytes)", fix: "copy the photo again" };
    case "unknown":
      return { file, problem: "not a JPEG or PNG image (its content is not a known image format)", fix: EXPORT_JPEG };
  }
}

// One photo used for two sides (copied, or picked twice in a file dialog): a side was never photographed. A stored set
// cannot be replaced, so byte-identical photos in one report are a problem naming both files. Photos are compared in
// steps that read only what is needed: the size, then a hash of the first 64 KiB, then a hash of the whole file, each
// step only for photos still alike. Camera photos rarely share a size, so a folder is seldom read at all. The head step
// stays: bench/report.mjs (240 photos of one size) checks in 0.2 s with it, 1.0 s hashing whole files.
const HEAD_BYTES = 64 * 1024;

export async function samePhotoProblems(photos: readonly Photo[]): Promise<Problem[]> {
  let alike = await splitBy([[...photos]], async (p) => String(p.bytes));
  alike = await splitBy(alike, async (p) => hash(await head(p.path)));
  alike = await splitBy(alike, async (p) => (p.bytes > HEAD_BYTES ? hash(await readFile(p.path)) : ""));
  return alike.map((same) => ({
    file: same.map((p) => p.file).join(", "),
    problem: `the same photo, byte for byte, for ${same.map((p) => `${p.group} ${p.side}`).join(" and ")}`,
    fix: "each side needs its own photo: replace the copy with the photo of its side",
  }));
}

/** The groups of two or more photos that stay together when each group is split by `key`. */
async function splitBy(groups: readonly Photo[][], key: (p: Photo) => Promise<string>): Promise<Photo[][]> {
  const out: Photo[][] = [];
  for (const group of groups) {
    const byKey = new Map<string, Photo[]>();
    for (const p of group) {
      const k = await key(p);
      byKey.set(k, [...(byKey.get(k) ?? []), p]);
    }
    out.push(...[...byKey.values()].filter((g) => g.length > 1));
  }
  return out;
}

async function head(path: string): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function hash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}
