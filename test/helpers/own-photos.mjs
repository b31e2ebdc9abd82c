// Copies of photo folders whose photos are their own, as no two real condition-report sets share a photo (report
// upload refuses a set with photos another set sent). Each JPEG gets a comment segment right after its start marker,
// each PNG a tEXt chunk right after its header chunk, saying which copy it is: the image itself is unchanged, and every
// other file is copied as it is. Plain JavaScript, so the documentation's setup comments run it too:
//   node "$HELPERS/own-photos.mjs" "$FIXTURES/photos/nested" photos/1239
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";

const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Signature (8 bytes) and IHDR (length 4, type 4, data 13, CRC 4). */
const PNG_HEADER_END = 33;

/**
 * The photo with `note` inside it (a JPEG comment, a PNG tEXt chunk), or undefined when it is neither.
 * @param {Buffer} bytes
 * @param {string} note
 * @returns {Buffer | undefined}
 */
export function ownPhoto(bytes, note) {
  const text = Buffer.from(note, "latin1");
  if (bytes.subarray(0, 3).equals(JPEG)) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(text.length + 2);
    return Buffer.concat([bytes.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, text, bytes.subarray(2)]);
  }
  if (bytes.subarray(0, 8).equals(PNG)) {
    const body = Buffer.concat([Buffer.from("tEXtComment\0", "latin1"), text]);
    const chunk = Buffer.alloc(body.length + 8);
    chunk.writeUInt32BE(body.length - 4, 0);
    body.copy(chunk, 4);
    chunk.writeUInt32BE(crc32(body), body.length + 4);
    return Buffer.concat([bytes.subarray(0, PNG_HEADER_END), chunk, bytes.subarray(PNG_HEADER_END)]);
  }
  return undefined;
}

/**
 * Copies the folder `from` to `to`, each photo made its own with a note naming `note` (the copy's path by default)
 * and the file.
 * @param {string} from
 * @param {string} to
 * @param {string} [note]
 */
export function ownCopy(from, to, note = to) {
  cpSync(from, to, { recursive: true });
  for (const entry of readdirSync(to, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const own = ownPhoto(readFileSync(path), `${note} ${relative(to, path)}`);
    if (own) writeFileSync(path, own);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [from, to] = process.argv.slice(2);
  if (from === undefined || to === undefined) throw new Error("usage: node own-photos.mjs FROM TO");
  ownCopy(from, to);
}
