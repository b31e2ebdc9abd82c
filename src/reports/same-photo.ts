// One photo used for two sides (copied, or picked twice in a file dialog): a side was never photographed. A stored set
// cannot be replaced, so byte-identical photos in one report are a problem naming both files. Photos are compared in
// steps that read only what is needed: the size, then a hash of the first 64 KiB, then a hash of the whole file, each
// step only for photos still alike. Camera photos rarely share a size, so a folder is seldom read at all.
import { createHash } from "node:crypto";
import { open, readFile } from "node:fs/promises";
import type { Photo, Problem } from "./report-types.js";

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
