import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { createFitWorkspace, describeFit, fitPhoto, PNG_MIN_LONG_EDGE } from "../../../src/reports/fit.js";
import { inspectFile } from "../../../src/reports/photo-sniff.js";
import type { Photo } from "../../../src/reports/report-types.js";
import { fixture } from "../../helpers/cli.js";
import { DATE, exifSummary, phoneJpeg, withSegments, xmpSegment } from "../../helpers/photo-makers.js";

const sniffFile = async (path: string) => (await inspectFile(path)).sniffed;

const LIMIT = 1_048_576;
const SAFE = 1_000_000;
const GPS_IFD = 0x8825;
const workspace = await createFitWorkspace();
afterAll(() => workspace.dispose());

describe("createFitWorkspace", () => {
  it("is removed although copies are still being written into it (a fit abandoned by Ctrl-C), without an error", async () => {
    const ws = await createFitWorkspace();
    let written = 0;
    const writer = (async () => {
      while (written < 200) await writeFile(join(ws.dir, `copy-${written++}.jpg`), "x").catch(() => (written = 200));
    })();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(ws.dispose()).resolves.toBeUndefined();
    await writer;
    expect(existsSync(ws.dir)).toBe(false);
  });
});

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

function noise(width: number, height: number, channels: 3 | 4 = 3): Buffer {
  const data = Buffer.alloc(width * height * channels);
  let x = 7;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (x >> 16) & 0xff;
  }
  return data;
}

async function photoFrom(path: string, type: "jpeg" | "png"): Promise<Photo> {
  const s = await sniffFile(path);
  if (s.kind !== "photo") throw new Error(`not a photo: ${path}`);
  return { group: "box", side: "front", path, file: "box/front", type, bytes: readFileSync(path).length, width: s.width, height: s.height };
}

describe("fitPhoto", () => {
  it("brings the oversized fixture under 1,000,000 bytes, upright, original untouched", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const original = check.oversized[0]!;
    const before = sha(original.path);
    expect((await sharp(original.path).metadata()).orientation).toBe(6);

    const r = await fitPhoto(original, workspace.dir);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.bytes).toBeLessThanOrEqual(SAFE);
    expect(readFileSync(r.photo.path).length).toBe(r.photo.bytes);
    expect(r.photo.type).toBe("jpeg");
    // Stored 1200x900 with orientation 6: the copy is upright, 900 wide and 1200 high (no shrinking needed).
    expect([r.photo.width, r.photo.height]).toEqual([900, 1200]);
    const meta = await sharp(r.photo.path).metadata();
    expect(meta.orientation ?? 1).toBe(1);
    expect(r.photo.fitted).toMatchObject({ fromBytes: original.bytes, fromType: "jpeg", fromWidth: 900, fromHeight: 1200 });
    expect(sha(original.path)).toBe(before);
    expect(r.photo.path.startsWith(workspace.dir)).toBe(true);
  });

  it("recompresses into an upright copy that keeps the capture date and the GPS position as the original has them", async () => {
    const path = join(workspace.dir, "gps.jpg");
    writeFileSync(path, await phoneJpeg({ width: 1600, height: 1200, quality: 95, orientation: 6 }));
    const photo = await photoFrom(path, "jpeg");
    const r = await fitPhoto(photo, workspace.dir, 300_000);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.bytes).toBeLessThanOrEqual(300_000);
    expect(r.photo.height).toBeGreaterThan(r.photo.width);
    const meta = await sharp(r.photo.path).metadata();
    expect(meta.orientation ?? 1).toBe(1);
    const exif = exifSummary(meta.exif);
    expect(exif.text).toContain(DATE);
    expect(exif.tags).toContain(GPS_IFD);
    expect(r.photo.locationStripped).toBeUndefined();
    expect(describeFit(r.photo)).toMatch(/1200x1600 -> \d+x\d+, JPEG quality 82$/);

    const stripped = await fitPhoto(photo, workspace.dir, 300_000, undefined, { stripLocation: true });
    if (!stripped.ok) throw new Error(stripped.problem.problem);
    const strippedExif = exifSummary((await sharp(stripped.photo.path).metadata()).exif);
    expect(strippedExif.tags).not.toContain(GPS_IFD);
    expect(strippedExif.text).toContain(DATE);
    expect(stripped.photo.locationStripped).toBe(true);
    expect(describeFit(stripped.photo)).toContain("GPS position removed");
  });

  it("shrinks to the largest long edge that fits (within 1%), not further", async () => {
    const path = join(workspace.dir, "large.jpg");
    writeFileSync(path, await phoneJpeg({ width: 2400, height: 1800, quality: 95, blur: 0.8, gps: false }));
    const photo = await photoFrom(path, "jpeg");
    const limit = 250_000;
    const r = await fitPhoto(photo, workspace.dir, limit);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.bytes).toBeLessThanOrEqual(limit);
    expect(r.photo.fitted?.quality).toBe(82);
    const edge = Math.max(r.photo.width, r.photo.height);
    expect(edge).toBeLessThan(2400);
    // One percent larger, at the same quality, no longer fits.
    const larger = Math.ceil(edge * 1.01) + 1;
    const bigger = await sharp(path).rotate().keepExif().resize({ width: larger, height: larger, fit: "inside" }).jpeg({ quality: 82, chromaSubsampling: "4:2:0" }).toBuffer();
    expect(bigger.length).toBeGreaterThan(limit);
  });

  it("drops metadata without touching the pixels when that alone fits: XMP and a trailer first, the ICC profile only if needed", async () => {
    const base = await phoneJpeg({ width: 480, height: 360, icc: "p3", quality: 80 });
    const path = join(workspace.dir, "depth.jpg");
    writeFileSync(path, Buffer.concat([withSegments(base, xmpSegment("depth", 65_000)), Buffer.alloc(1_000_000, 3)]));
    const photo: Photo = { group: "box", side: "back", path, file: "box/back", type: "jpeg", bytes: readFileSync(path).length, width: 480, height: 360 };
    expect(photo.bytes).toBeGreaterThan(LIMIT);
    const r = await fitPhoto(photo, workspace.dir);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(readFileSync(r.photo.path).equals(base)).toBe(true);
    expect(r.photo.fitted?.dropped).toEqual(["XMP", "1,000,000 bytes after the image"]);
    expect(describeFit(r.photo)).toContain("by dropping XMP, 1,000,000 bytes after the image (pixels unchanged)");

    const icc = await phoneJpeg({ width: 480, height: 360, icc: "cmyk", quality: 80 });
    const iccPath = join(workspace.dir, "icc.jpg");
    writeFileSync(iccPath, icc);
    const iccPhoto = await photoFrom(iccPath, "jpeg");
    expect(iccPhoto.bytes).toBeGreaterThan(SAFE);
    const i = await fitPhoto(iccPhoto, workspace.dir);
    if (!i.ok) throw new Error(i.problem.problem);
    expect(i.photo.fitted?.dropped).toEqual(["the ICC colour profile"]);
    expect(i.photo.fitted?.quality).toBeUndefined();
    expect([i.photo.width, i.photo.height]).toEqual([480, 360]);
    expect((await sharp(i.photo.path).raw().toBuffer()).equals(await sharp(icc).raw().toBuffer())).toBe(true);
    expect(exifSummary((await sharp(i.photo.path).metadata()).exif).text).toContain(DATE);
  });

  it("keeps a PNG as PNG when recompression is enough", async () => {
    const path = join(workspace.dir, "flat.png");
    // Flat colour stored without compression: huge file, tiny once compressed.
    await sharp({ create: { width: 1400, height: 1000, channels: 3, background: "#3366aa" } }).png({ compressionLevel: 0 }).toFile(path);
    const photo = await photoFrom(path, "png");
    expect(photo.bytes).toBeGreaterThan(LIMIT);
    const r = await fitPhoto(photo, workspace.dir);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.type).toBe("png");
    expect(describeFit(r.photo)).not.toContain("converted");
    expect([r.photo.width, r.photo.height]).toEqual([1400, 1000]);
  });

  it("turns a photographic PNG into a JPEG when it cannot fit as PNG at a useful size, and says so", async () => {
    const path = join(workspace.dir, "photo.png");
    await sharp(noise(2400, 1800), { raw: { width: 2400, height: 1800, channels: 3 } }).png().toFile(path);
    const photo = await photoFrom(path, "png");
    const r = await fitPhoto(photo, workspace.dir, 400_000);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.type).toBe("jpeg");
    expect(describeFit(r.photo)).toContain("(converted from PNG to JPEG: as PNG it could not fit)");
    expect(r.photo.bytes).toBeLessThanOrEqual(400_000);
    expect((await sniffFile(r.photo.path)).kind).toBe("photo");
    expect(Math.max(r.photo.width, r.photo.height)).toBeGreaterThanOrEqual(800);
    expect(PNG_MIN_LONG_EDGE).toBeLessThan(2400);
  });

  it("gives up with a problem rather than shrink below a useful size", async () => {
    const path = join(workspace.dir, "tiny-limit.jpg");
    writeFileSync(path, readFileSync(fixture("photos/oversized/box/front.jpg")));
    const photo = await photoFrom(path, "jpeg");
    const r = await fitPhoto(photo, workspace.dir, 2_000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.fix).toContain("export a smaller JPEG");
  });
});
