// Photos made the way phones and cameras make them, for the fit and metadata tests: noise (so JPEG cannot compress
// it away), EXIF with an orientation, a capture date and a GPS position, XMP blocks, big ICC profiles, trailers.
import sharp from "sharp";

export const DATE = "2024:05:01 10:11:12";

/** Pseudo-random pixels, smoothed by `blur` so a JPEG of them compresses like a photo rather than like static. */
export async function noisePhoto(width: number, height: number, blur = 0): Promise<sharp.Sharp> {
  const data = Buffer.alloc(width * height * 3);
  let x = 7;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (x >> 16) & 0xff;
  }
  const image = sharp(data, { raw: { width, height, channels: 3 } });
  return blur > 0 ? sharp(await image.blur(blur).png({ compressionLevel: 0 }).toBuffer()) : image;
}

export interface PhoneJpeg {
  width: number;
  height: number;
  quality?: number;
  orientation?: number;
  gps?: boolean;
  blur?: number;
  icc?: "cmyk" | "p3";
}

/** A JPEG with EXIF: maker, capture date, and (by default) a GPS position. */
export async function phoneJpeg(p: PhoneJpeg): Promise<Buffer> {
  let image = (await noisePhoto(p.width, p.height, p.blur)).jpeg({ quality: p.quality ?? 90 });
  if (p.icc) image = image.withIccProfile(p.icc);
  if (p.orientation) image = image.withMetadata({ orientation: p.orientation });
  const gps = p.gps === false ? {} : { IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 0/1" } };
  return image.withExifMerge({ IFD0: { Make: "PhoneCo" }, IFD2: { DateTimeOriginal: DATE }, ...gps }).toBuffer();
}

/** A JPEG marker segment. */
export function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** An XMP packet in an APP1 segment, padded to `size` bytes (a depth map is stored this way, base64 in XMP). */
export function xmpSegment(body: string, size = 0): Buffer {
  const text = `http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/">${body}</x:xmpmeta>`;
  return segment(0xe1, Buffer.from(text.padEnd(Math.max(text.length, size - 4), " "), "latin1"));
}

/** `jpeg` with `segments` inserted right after its start-of-image marker. */
export function withSegments(jpeg: Buffer, ...segments: Buffer[]): Buffer {
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/**
 * The tags of IFD0 of an EXIF block, and the GPS IFD's entry count; read here independently of the code under test.
 * `exif` as sharp's metadata() gives it (starting "Exif\0\0").
 */
export function exifSummary(exif: Buffer | undefined): { tags: number[]; gpsEntries: number; text: string } {
  if (!exif) return { tags: [], gpsEntries: 0, text: "" };
  const tiff = exif.subarray(exif.toString("latin1", 0, 4) === "Exif" ? 6 : 0);
  const le = tiff.toString("latin1", 0, 2) === "II";
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  const tags: number[] = [];
  let gpsEntries = 0;
  for (let i = 0; i < u16(ifd0); i++) {
    const tag = u16(ifd0 + 2 + 12 * i);
    tags.push(tag);
    if (tag === 0x8825) gpsEntries = u16(u32(ifd0 + 2 + 12 * i + 8));
  }
  return { tags, gpsEntries, text: tiff.toString("latin1") };
}
