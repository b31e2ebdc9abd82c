import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { createFitWorkspace, fitPhoto, PNG_MIN_LONG_EDGE } from "../../../src/reports/fit.js";
import { sniffFile } from "../../../src/reports/photo-sniff.js";
import type { Photo } from "../../../src/reports/report-types.js";
import { fixture } from "../../helpers/cli.js";

const LIMIT = 1_048_576;
const workspace = await createFitWorkspace();
afterAll(() => workspace.dispose());

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
  it("brings the oversized fixture under the limit, upright, without metadata, original untouched", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const original = check.oversized[0]!;
    const before = sha(original.path);
    expect((await sharp(original.path).metadata()).orientation).toBe(6);

    const r = await fitPhoto(original, workspace.dir);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.bytes).toBeLessThanOrEqual(LIMIT);
    expect(readFileSync(r.photo.path).length).toBe(r.photo.bytes);
    expect(r.photo.type).toBe("jpeg");
    // Stored 1200x900 with orientation 6: the copy is upright, 900 wide and 1200 high (no shrinking needed).
    expect([r.photo.width, r.photo.height]).toEqual([900, 1200]);
    const meta = await sharp(r.photo.path).metadata();
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(r.photo.fitted).toMatchObject({ fromBytes: original.bytes, fromType: "jpeg", fromWidth: 900, fromHeight: 1200 });
    expect(sha(original.path)).toBe(before);
    expect(r.photo.path.startsWith(workspace.dir)).toBe(true);
  });

  it("shrinks the long edge when quality steps alone cannot fit, and strips GPS", async () => {
    const path = join(workspace.dir, "gps.jpg");
    await sharp(noise(1600, 1200), { raw: { width: 1600, height: 1200, channels: 3 } })
      .jpeg({ quality: 95 })
      .withExif({ IFD0: { Make: "PhoneCo" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 0/1" } })
      .toFile(path);
    expect((await sharp(path).metadata()).exif).toBeDefined();
    const photo = await photoFrom(path, "jpeg");
    const limit = 300_000;
    const r = await fitPhoto(photo, workspace.dir, limit);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.bytes).toBeLessThanOrEqual(limit);
    expect(r.photo.width).toBeLessThan(1600);
    expect(r.photo.width / r.photo.height).toBeCloseTo(4 / 3, 1);
    const buf = readFileSync(r.photo.path);
    expect(buf.includes(Buffer.from("PhoneCo"))).toBe(false);
    expect((await sharp(r.photo.path).metadata()).exif).toBeUndefined();
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
    expect(r.convertedFrom).toBeUndefined();
    expect([r.photo.width, r.photo.height]).toEqual([1400, 1000]);
  });

  it("turns a photographic PNG into a JPEG when it cannot fit as PNG at a useful size, and says so", async () => {
    const path = join(workspace.dir, "photo.png");
    await sharp(noise(2400, 1800), { raw: { width: 2400, height: 1800, channels: 3 } }).png().toFile(path);
    const photo = await photoFrom(path, "png");
    const r = await fitPhoto(photo, workspace.dir);
    if (!r.ok) throw new Error(r.problem.problem);
    expect(r.photo.type).toBe("jpeg");
    expect(r.convertedFrom).toBe("png");
    expect(r.photo.bytes).toBeLessThanOrEqual(LIMIT);
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
