// Lossless metadata surgery on JPEG and PNG bytes: the pixels are copied as they are, never decoded or re-encoded.
// Two uses: a photo over the limit only because of what rides along with the image (a 900 KB ICC profile, an XMP
// depth map, a Motion Photo's video after the end-of-image marker) fits once that is dropped; and --strip-location
// removes the GPS position (often a collector's home) while everything else, the capture date included, stays.
// GPS is removed from EXIF in place (the GPS IFD is zeroed and its pointer taken out of IFD0, so no offset moves);
// XMP packets that carry a GPS position are dropped whole, and so is anything after the image, which can hold a
// second image or a video with its own location.
import { crc32 } from "node:zlib";
import type { PhotoType } from "./report-types.js";

export interface Slimmed {
  data: Buffer;
  /** What was taken out, in words ("an ICC profile", "XMP"), empty when nothing was. */
  dropped: string[];
}

const EXIF_HEADER = Buffer.from("Exif\0\0", "latin1");
const XMP_HEADERS = ["http://ns.adobe.com/xap/1.0/\0", "http://ns.adobe.com/xmp/extension/\0"].map((h) => Buffer.from(h, "latin1"));
const ICC_HEADER = Buffer.from("ICC_PROFILE\0", "latin1");
/** XMP names of a position (exif:GPSLatitude, exif:GPSLongitude, and their element forms). */
const XMP_GPS = /GPS(Latitude|Longitude)/;

/** Drops every metadata block the image does not need to be seen right; `keepIcc` keeps its colour profile. */
export function slimMetadata(data: Buffer, type: PhotoType, keepIcc: boolean): Slimmed {
  return type === "jpeg" ? slimJpeg(data, keepIcc) : slimPng(data, keepIcc);
}

/** The photo without its GPS position; `stripped` says whether there was one. */
export function stripLocation(data: Buffer, type: PhotoType): { data: Buffer; stripped: boolean } {
  return type === "jpeg" ? stripJpegLocation(data) : stripPngLocation(data);
}

interface Segment {
  marker: number;
  start: number;
  end: number;
}

/** The marker segments before the first scan, the offset of that scan, and the end of the image (after FF D9). */
function jpegLayout(data: Buffer): { segments: Segment[]; scan: number; imageEnd: number } | undefined {
  const segments: Segment[] = [];
  let pos = 2;
  while (pos + 4 <= data.length) {
    if (data[pos] !== 0xff) return undefined;
    const marker = data[pos + 1]!;
    if (marker === 0xff) {
      pos += 1;
      continue;
    }
    if (marker === 0xda) return { segments, scan: pos, imageEnd: endOfImage(data, pos) };
    const end = pos + 2 + data.readUInt16BE(pos + 2);
    segments.push({ marker, start: pos, end });
    pos = end;
  }
  return undefined;
}

/** Scans past entropy-coded data (where FF is followed by 00 or a restart marker) to the end-of-image marker. */
function endOfImage(data: Buffer, from: number): number {
  let pos = from;
  while (pos + 1 < data.length) {
    if (data[pos] !== 0xff) {
      pos++;
      continue;
    }
    const next = data[pos + 1]!;
    if (next === 0xd9) return pos + 2;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      pos += next === 0xff ? 1 : 2;
      continue;
    }
    // Another segment between scans (DHT, SOS, DQT of a progressive JPEG): skip its header by its length.
    pos += pos + 3 < data.length ? 2 + data.readUInt16BE(pos + 2) : 2;
  }
  return data.length;
}

const startsWith = (data: Buffer, s: Segment, header: Buffer) => data.subarray(s.start + 4, s.start + 4 + header.length).equals(header);

function jpegKind(data: Buffer, s: Segment): "exif" | "xmp" | "icc" | "essential" | "other" {
  if (s.marker === 0xe1 && startsWith(data, s, EXIF_HEADER)) return "exif";
  if (s.marker === 0xe1 && XMP_HEADERS.some((h) => startsWith(data, s, h))) return "xmp";
  if (s.marker === 0xe2 && startsWith(data, s, ICC_HEADER)) return "icc";
  // APP0 (JFIF) and APP14 (Adobe: says whether CMYK is inverted) change how the pixels read; all non-APP/COM
  // segments (tables, frame header) are the image itself.
  if (s.marker === 0xe0 || s.marker === 0xee || !((s.marker >= 0xe0 && s.marker <= 0xef) || s.marker === 0xfe)) return "essential";
  return "other";
}

function slimJpeg(data: Buffer, keepIcc: boolean): Slimmed {
  const layout = jpegLayout(data);
  if (!layout) return { data, dropped: [] };
  const dropped = new Set<string>();
  const kept: Buffer[] = [data.subarray(0, 2)];
  for (const s of layout.segments) {
    const kind = jpegKind(data, s);
    if (kind === "essential" || kind === "exif" || (kind === "icc" && keepIcc)) kept.push(data.subarray(s.start, s.end));
    else dropped.add(kind === "icc" ? "the ICC colour profile" : kind === "xmp" ? "XMP" : "other metadata blocks");
  }
  kept.push(data.subarray(layout.scan, layout.imageEnd));
  if (layout.imageEnd < data.length) dropped.add(`${(data.length - layout.imageEnd).toLocaleString("en-US")} bytes after the image`);
  return { data: Buffer.concat(kept), dropped: [...dropped] };
}

function stripJpegLocation(data: Buffer): { data: Buffer; stripped: boolean } {
  const layout = jpegLayout(data);
  if (!layout) return { data, stripped: false };
  let stripped = false;
  const kept: Buffer[] = [data.subarray(0, 2)];
  for (const s of layout.segments) {
    const kind = jpegKind(data, s);
    if (kind === "xmp" && XMP_GPS.test(data.toString("latin1", s.start, s.end))) {
      stripped = true;
      continue;
    }
    // A second image (MPF) or a video after the first can carry its own position: it goes, and so does its index.
    if (layout.imageEnd < data.length && s.marker === 0xe2 && data.toString("latin1", s.start + 4, s.start + 8) === "MPF\0") continue;
    if (kind === "exif") {
      const copy = Buffer.from(data.subarray(s.start, s.end));
      if (removeGps(copy.subarray(4 + EXIF_HEADER.length))) stripped = true;
      kept.push(copy);
    } else kept.push(data.subarray(s.start, s.end));
  }
  kept.push(data.subarray(layout.scan, layout.imageEnd));
  if (layout.imageEnd < data.length && data.subarray(layout.imageEnd).some((b) => b !== 0)) stripped = true;
  return stripped ? { data: Buffer.concat(kept), stripped } : { data, stripped };
}

const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };
const GPS_IFD_TAG = 0x8825;

/** Removes the GPS IFD from a TIFF structure (EXIF) in place; true when there was one. Offsets never move. */
export function removeGps(tiff: Buffer): boolean {
  if (tiff.length < 8) return false;
  const le = tiff.toString("latin1", 0, 2) === "II";
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const inside = (at: number, length: number) => at >= 8 && at + length <= tiff.length;
  const ifd0 = u32(4);
  if (!inside(ifd0, 2)) return false;
  const count = u16(ifd0);
  if (!inside(ifd0, 2 + 12 * count + 4)) return false;
  const entry = (i: number) => ifd0 + 2 + 12 * i;
  let index = -1;
  for (let i = 0; i < count; i++) if (u16(entry(i)) === GPS_IFD_TAG) index = i;
  if (index < 0) return false;
  const gps = u32(entry(index) + 8);
  if (inside(gps, 2)) {
    const gpsCount = u16(gps);
    if (inside(gps, 2 + 12 * gpsCount + 4)) {
      for (let i = 0; i < gpsCount; i++) {
        const e = gps + 2 + 12 * i;
        const size = (TYPE_SIZES[u16(e + 2)] ?? 1) * u32(e + 4);
        if (size > 4 && inside(u32(e + 8), size)) tiff.fill(0, u32(e + 8), u32(e + 8) + size);
      }
      tiff.fill(0, gps, gps + 2 + 12 * gpsCount + 4);
    }
  }
  // Take the pointer out of IFD0: later entries move up one slot, the next-IFD offset follows them.
  tiff.copy(tiff, entry(index), entry(index + 1), entry(count) + 4);
  if (le) tiff.writeUInt16LE(count - 1, ifd0);
  else tiff.writeUInt16BE(count - 1, ifd0);
  tiff.fill(0, entry(count - 1) + 4, entry(count) + 4);
  return true;
}

/** Ancillary PNG chunks that change how the pixels look; every other ancillary chunk is metadata. */
const PNG_KEEP = new Set(["tRNS", "gAMA", "cHRM", "sRGB", "sBIT", "bKGD", "pHYs", "eXIf"]);

interface Chunk {
  type: string;
  start: number;
  end: number;
}

function pngChunks(data: Buffer): { chunks: Chunk[]; end: number } {
  const chunks: Chunk[] = [];
  let pos = 8;
  while (pos + 12 <= data.length) {
    const end = pos + 12 + data.readUInt32BE(pos);
    const type = data.toString("latin1", pos + 4, pos + 8);
    chunks.push({ type, start: pos, end: Math.min(end, data.length) });
    pos = end;
    if (type === "IEND") break;
  }
  return { chunks, end: Math.min(pos, data.length) };
}

function slimPng(data: Buffer, keepIcc: boolean): Slimmed {
  const { chunks, end } = pngChunks(data);
  const dropped = new Set<string>();
  const kept: Buffer[] = [data.subarray(0, 8)];
  for (const c of chunks) {
    const critical = c.type.charCodeAt(0) < 0x61;
    if (critical || PNG_KEEP.has(c.type) || (c.type === "iCCP" && keepIcc)) kept.push(data.subarray(c.start, c.end));
    else dropped.add(c.type === "iCCP" ? "the ICC colour profile" : c.type === "iTXt" || c.type === "tEXt" || c.type === "zTXt" ? "text and XMP" : "other metadata chunks");
  }
  if (end < data.length) dropped.add(`${(data.length - end).toLocaleString("en-US")} bytes after the image`);
  return { data: Buffer.concat(kept), dropped: [...dropped] };
}

function stripPngLocation(data: Buffer): { data: Buffer; stripped: boolean } {
  const { chunks, end } = pngChunks(data);
  let stripped = end < data.length;
  const kept: Buffer[] = [data.subarray(0, 8)];
  for (const c of chunks) {
    const body = data.subarray(c.start, c.end);
    if ((c.type === "iTXt" || c.type === "tEXt" || c.type === "zTXt") && XMP_GPS.test(body.toString("latin1"))) {
      stripped = true;
      continue;
    }
    if (c.type === "eXIf") {
      const copy = Buffer.from(body);
      if (removeGps(copy.subarray(8, copy.length - 4))) {
        copy.writeUInt32BE(crc32(copy.subarray(4, copy.length - 4)), copy.length - 4);
        stripped = true;
      }
      kept.push(copy);
    } else kept.push(body);
  }
  return stripped ? { data: Buffer.concat(kept), stripped } : { data, stripped };
}
