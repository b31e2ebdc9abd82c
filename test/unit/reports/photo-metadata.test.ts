import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { slimMetadata, stripLocation } from "../../../src/reports/photo-metadata.js";
import { DATE, exifSummary, phoneJpeg, withSegments, xmpSegment } from "../../helpers/photo-makers.js";

const GPS_IFD = 0x8825;
const pixels = (data: Buffer) => sharp(data).raw().toBuffer();

describe("stripLocation (lossless)", () => {
  it("takes the GPS position out of EXIF and keeps the pixels, the capture date and the rest of the EXIF", async () => {
    const original = await phoneJpeg({ width: 320, height: 240, orientation: 6 });
    const before = exifSummary((await sharp(original).metadata()).exif);
    expect(before.tags).toContain(GPS_IFD);
    expect(before.gpsEntries).toBeGreaterThanOrEqual(4);

    const { data, stripped } = stripLocation(original, "jpeg");
    expect(stripped).toBe(true);
    expect(data.length).toBe(original.length);
    const meta = await sharp(data).metadata();
    const after = exifSummary(meta.exif);
    expect(after.tags).not.toContain(GPS_IFD);
    expect(after.tags).toEqual(before.tags.filter((t) => t !== GPS_IFD));
    expect(after.text).toContain(DATE);
    expect(after.text).toContain("PhoneCo");
    expect(meta.orientation).toBe(6);
    expect((await pixels(data)).equals(await pixels(original))).toBe(true);
    // libvips (libexif) still reads and rewrites the EXIF: the structure is sound.
    const rewritten = await sharp(data).keepExif().jpeg().toBuffer();
    expect(exifSummary((await sharp(rewritten).metadata()).exif).text).toContain(DATE);
  });

  it("drops an XMP packet that holds a position, and a trailer after the image; leaves a photo without GPS as it is", async () => {
    const plain = await phoneJpeg({ width: 160, height: 120, gps: false });
    expect(stripLocation(plain, "jpeg")).toEqual({ data: plain, stripped: false });

    const xmp = xmpSegment('<rdf:Description exif:GPSLatitude="48,51.0N" exif:GPSLongitude="2,21.0E"/>');
    const withXmp = withSegments(plain, xmp);
    const r = stripLocation(withXmp, "jpeg");
    expect(r.stripped).toBe(true);
    expect(r.data.equals(plain)).toBe(true);

    const motion = Buffer.concat([plain, Buffer.from("....ftypmp42 video with its own GPS atom")]);
    const m = stripLocation(motion, "jpeg");
    expect(m.stripped).toBe(true);
    expect(m.data.equals(plain)).toBe(true);
  });

  it("removes GPS from a PNG's eXIf chunk with a correct checksum", async () => {
    const jpeg = await phoneJpeg({ width: 64, height: 48 });
    const png = await sharp(jpeg).keepExif().png().toBuffer();
    expect(exifSummary((await sharp(png).metadata()).exif).tags).toContain(GPS_IFD);
    const { data, stripped } = stripLocation(png, "png");
    expect(stripped).toBe(true);
    const after = exifSummary((await sharp(data, { failOn: "error" }).metadata()).exif);
    expect(after.tags).not.toContain(GPS_IFD);
    expect(after.text).toContain(DATE);
    expect((await pixels(data)).equals(await pixels(png))).toBe(true);
  });
});

describe("slimMetadata (lossless)", () => {
  it("drops XMP (a depth map), other APP blocks and a Motion Photo trailer, keeps EXIF, the ICC profile and the pixels", async () => {
    const base = await phoneJpeg({ width: 320, height: 240, icc: "p3" });
    const fat = Buffer.concat([withSegments(base, xmpSegment("depth", 60_000), xmpSegment("depth", 60_000)), Buffer.alloc(200_000, 7)]);
    const { data, dropped } = slimMetadata(fat, "jpeg", true);
    expect(data.equals(base)).toBe(true);
    expect(dropped).toEqual(["XMP", "200,000 bytes after the image"]);
    const meta = await sharp(data).metadata();
    expect(meta.icc).toBeDefined();
    expect(exifSummary(meta.exif).text).toContain(DATE);
  });

  it("drops the ICC profile only when asked", async () => {
    const base = await phoneJpeg({ width: 320, height: 240, icc: "cmyk" });
    expect((await sharp(base).metadata()).icc!.length).toBeGreaterThan(900_000);
    expect(slimMetadata(base, "jpeg", true).data.equals(base)).toBe(true);
    const { data, dropped } = slimMetadata(base, "jpeg", false);
    expect(dropped).toEqual(["the ICC colour profile"]);
    expect(data.length).toBeLessThan(base.length - 900_000);
    const meta = await sharp(data, { failOn: "error" }).metadata();
    expect(meta.icc).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([320, 240]);
    expect(exifSummary(meta.exif).text).toContain(DATE);
  });

  it("keeps a progressive JPEG whole (tables between scans are part of the image)", async () => {
    const progressive = await (await import("../../helpers/photo-makers.js")).noisePhoto(200, 150).then((s) => s.jpeg({ progressive: true }).toBuffer());
    const fat = Buffer.concat([progressive, Buffer.alloc(1000)]);
    expect(slimMetadata(fat, "jpeg", true).data.equals(progressive)).toBe(true);
  });

  it("drops a PNG's text, XMP and ICC chunks but keeps eXIf and transparency", async () => {
    const rgba = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } } })
      .withIccProfile("p3")
      .withExifMerge({ IFD2: { DateTimeOriginal: DATE } })
      .png()
      .toBuffer();
    expect((await sharp(rgba).metadata()).icc).toBeDefined();
    const { data, dropped } = slimMetadata(rgba, "png", false);
    expect(dropped).toContain("the ICC colour profile");
    const meta = await sharp(data, { failOn: "error" }).metadata();
    expect(meta.icc).toBeUndefined();
    expect(meta.hasAlpha).toBe(true);
    expect(exifSummary(meta.exif).text).toContain(DATE);
  });
});
