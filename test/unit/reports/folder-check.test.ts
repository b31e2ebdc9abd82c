import { cpSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { createFitWorkspace, fitPhoto } from "../../../src/reports/fit.js";
import { fixture } from "../../helpers/cli.js";
import { needs, SYMLINKS } from "../../helpers/system.js";

const ORDER = ["front", "back", "top", "bottom", "left", "right"];
const slots = (photos: { group: string; side: string }[]) => photos.map((p) => `${p.group} ${p.side}`);
const expectedSlots = ["box", "art"].flatMap((g) => ORDER.map((s) => `${g} ${s}`));

/** `jpeg` padded with COM segments before the image: still a valid JPEG, of exactly `size` bytes. */
function paddedJpeg(jpeg: Buffer, size: number): Buffer {
  const segments: Buffer[] = [];
  for (let left = size - jpeg.length; left > 0; ) {
    const n = left > 65_537 ? 60_000 : left;
    const seg = Buffer.alloc(n);
    seg[0] = 0xff;
    seg[1] = 0xfe;
    seg.writeUInt16BE(n - 2, 2);
    segments.push(seg);
    left -= n;
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

function copyFixture(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "shipctl-check-")), name);
  cpSync(fixture("photos", name), dir, { recursive: true });
  return dir;
}

describe("checkFolder: layouts", () => {
  it("reads box/front.jpg ... art/right.png", async () => {
    const r = await checkFolder(fixture("photos/nested"));
    expect(r.problems).toEqual([]);
    expect(slots(r.photos)).toEqual(expectedSlots);
    expect(r.photos[0]).toMatchObject({ file: "box/front.jpg", type: "jpeg" });
    expect(r.photos[6]).toMatchObject({ file: "art/front.png", type: "png" });
  });

  it("reads flat names in any case with -, _ or space, ignoring .DS_Store, Thumbs.db and ._ files", async () => {
    const r = await checkFolder(fixture("photos/flat"));
    expect(r.problems).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.photos.map((p) => p.file)).toEqual([
      "box-front.jpg", "Box_Back.JPG", "box top.jpeg", "BOX-BOTTOM.jpg", "box_left.jpg", "Box Right.jpg",
      "art-front.PNG", "Art_Back.png", "art top.png", "art-bottom.jpg", "ART_LEFT.png", "art-right.jpeg",
    ]);
  });

  it("--by-order takes sides in natural sort order (IMG_2 before IMG_10)", async () => {
    const r = await checkFolder(fixture("photos/by-order"), { byOrder: true });
    expect(r.problems).toEqual([]);
    expect(r.photos.map((p) => p.file)).toEqual([
      "box/IMG_2.jpg", "box/IMG_9.jpg", "box/IMG_10.jpg", "box/IMG_11.jpg", "box/IMG_20.jpg", "box/IMG_100.jpg",
      "art/DSC_0001.JPG", "art/DSC_0002.JPG", "art/DSC_0003.JPG", "art/DSC_0004.JPG", "art/DSC_0005.JPG", "art/DSC_0006.JPG",
    ]);
    expect(slots(r.photos)).toEqual(expectedSlots);
  });

  it("without --by-order, camera names are missing sides with a hint", async () => {
    const r = await checkFolder(fixture("photos/by-order"));
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.problem).toContain("12 sides");
    expect(r.problems[0]!.fix).toContain("--by-order");
    expect(r.problems[0]!.fix).toContain("box/IMG_2.jpg");
  });

  it("--by-order with the wrong count names the folder and what it found", async () => {
    const dir = copyFixture("by-order");
    writeFileSync(join(dir, "box", "IMG_200.jpg"), "x");
    const r = await checkFolder(dir, { byOrder: true });
    // The stray file's own problem is named too, so one run lists everything to fix.
    expect(r.problems).toEqual([
      expect.objectContaining({ file: "box/", problem: expect.stringMatching(/^7 photos .*needs exactly 6/) }),
      expect.objectContaining({ file: "box/IMG_200.jpg", problem: expect.stringContaining("not a JPEG or PNG") }),
    ]);
  });

  it("a PNG named .jpg is accepted as PNG with a warning", async () => {
    const r = await checkFolder(fixture("photos/renamed-png"));
    expect(r.problems).toEqual([]);
    expect(r.photos[0]).toMatchObject({ file: "box-front.jpg", type: "png" });
    expect(r.warnings.map((w) => w.file)).toEqual(["box-front.jpg"]);
  });
});

describe("checkFolder: problems, all at once", () => {
  it("names a missing side and the file that names no side", async () => {
    const r = await checkFolder(fixture("photos/side-missing"));
    expect(r.problems).toEqual([
      expect.objectContaining({ file: "art/left", problem: "missing (no photo for this side)", fix: expect.stringContaining("IMG_4471.jpg") }),
    ]);
  });

  it("names the subfolders it does not look into when the photos are a folder deeper (an unzipped export)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shipctl-check-"));
    cpSync(fixture("photos/nested"), join(dir, "1234-export"), { recursive: true });
    const r = await checkFolder(dir);
    expect(r.problems).toEqual([
      expect.objectContaining({
        problem: "missing (no photo for these 12 sides)",
        fix: expect.stringContaining("only box/ and art/ are looked into, not these subfolders: 1234-export (if the photos are in one, give that folder)"),
      }),
    ]);
  });

  it("names a side given twice with both files", async () => {
    const r = await checkFolder(fixture("photos/side-twice"));
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.problem).toBe("2 photos for box front");
    expect(r.problems[0]!.file).toContain("box-front.jpg");
    expect(r.problems[0]!.file).toContain("box/front.jpg");
  });

  it("lists HEIC, WebP, TIFF and a truncated JPEG together, each with a fix", async () => {
    const r = await checkFolder(fixture("photos/bad-types"));
    const byFile = Object.fromEntries(r.problems.map((p) => [p.file, p]));
    expect(Object.keys(byFile).sort()).toEqual(["art-bottom.tif", "art-right.webp", "box-back.jpg", "box-top.heic"]);
    expect(byFile["box-top.heic"]!.problem).toContain("HEIC");
    expect(byFile["box-top.heic"]!.fix).toContain("JPEG");
    expect(byFile["art-right.webp"]!.problem).toContain("WebP");
    expect(byFile["art-bottom.tif"]!.problem).toContain("TIFF");
    expect(byFile["box-back.jpg"]!.problem).toContain("truncated JPEG");
    expect(byFile["box-back.jpg"]!.fix).toContain("copy it again");
  });

  it("refuses an oversized photo unless --fit, naming the exact limit", async () => {
    const r = await checkFolder(fixture("photos/oversized"));
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ file: "box/front.jpg" });
    expect(r.problems[0]!.problem).toContain("1,048,576 bytes limit");
    expect(r.problems[0]!.fix).toContain("--fit");
    const fit = await checkFolder(fixture("photos/oversized"), { fit: true });
    expect(fit.problems).toEqual([]);
    expect(fit.oversized.map((p) => p.file)).toEqual(["box/front.jpg"]);
  });

  // The one size rule: above 1,000,000 bytes, --fit fits (and there is no note); without --fit, a note up to
  // 1,048,576 and a refusal above.
  it.each([1_000_001, 1_048_576])("a photo of %i bytes: a note naming --fit, or with --fit a copy of at most 1,000,000 bytes", async (size) => {
    const dir = copyFixture("nested");
    const path = join(dir, "box", "top.jpg");
    const { readFileSync } = await import("node:fs");
    const jpeg = readFileSync(path);
    writeFileSync(path, paddedJpeg(jpeg, size));
    expect(statSync(path).size).toBe(size);
    const r = await checkFolder(dir);
    expect(r.problems).toEqual([]);
    expect(r.oversized).toEqual([]);
    expect(r.warnings).toEqual([expect.objectContaining({ file: "box/top.jpg", kind: "near-limit" })]);
    expect(r.warnings[0]!.fix).toContain("--fit sends a copy of at most 1,000,000 bytes");

    const fit = await checkFolder(dir, { fit: true });
    expect(fit.problems).toEqual([]);
    expect(fit.warnings).toEqual([]);
    expect(fit.oversized.map((p) => p.file)).toEqual(["box/top.jpg"]);
    const workspace = await createFitWorkspace();
    try {
      const fitted = await fitPhoto(fit.oversized[0]!, workspace.dir);
      if (!fitted.ok) throw new Error(fitted.problem.problem);
      expect(fitted.photo.bytes).toBeLessThanOrEqual(1_000_000);
      // Only the padding went: the pixels are sent as they were.
      expect(fitted.photo.fitted?.dropped).toEqual(["other metadata blocks"]);
      expect(readFileSync(fitted.photo.path).equals(jpeg)).toBe(true);
    } finally {
      await workspace.dispose();
    }
  });

  it("refuses 1,048,577 bytes without --fit", async () => {
    const dir = copyFixture("nested");
    const path = join(dir, "box", "top.jpg");
    const { readFileSync } = await import("node:fs");
    const jpeg = readFileSync(path);
    writeFileSync(path, paddedJpeg(jpeg, 1_048_577));
    const r = await checkFolder(dir);
    expect(r.problems).toEqual([expect.objectContaining({ file: "box/top.jpg" })]);
    expect(r.problems[0]!.problem).toContain("over the 1,048,576 bytes limit");
  });

  it.skipIf(!SYMLINKS)(needs(SYMLINKS, "symlinks", "refuses a symlink leading outside the folder, follows one inside"), async () => {
    const dir = copyFixture("nested");
    const outside = mkdtempSync(join(tmpdir(), "shipctl-outside-"));
    cpSync(join(dir, "box", "left.jpg"), join(outside, "left.jpg"));
    const { rmSync } = await import("node:fs");
    rmSync(join(dir, "box", "left.jpg"));
    symlinkSync(join(outside, "left.jpg"), join(dir, "box", "left.jpg"));
    mkdirSync(join(dir, "originals"));
    cpSync(join(dir, "box", "right.jpg"), join(dir, "originals", "r.jpg"));
    rmSync(join(dir, "box", "right.jpg"));
    symlinkSync(join(dir, "originals", "r.jpg"), join(dir, "box", "right.jpg"));
    const r = await checkFolder(dir);
    expect(r.problems.map((p) => p.file)).toEqual(["box/left.jpg"]);
    expect(r.problems[0]!.problem).toContain("outside the folder");
    expect(r.photos.find((p) => p.side === "right" && p.group === "box")?.file).toBe("box/right.jpg");
  });

  it("says so when the folder does not exist", async () => {
    const missing = join(tmpdir(), "no-such-folder-shipctl");
    const r = await checkFolder(missing);
    expect(r.problems).toEqual([expect.objectContaining({ file: "", problem: "no such folder" })]);
  });

  it("names the path it looked at for a missing folder (a manifest's ~/photos is not the home folder's)", async () => {
    const r = await checkFolder(join(tmpdir(), "~", "photos"));
    expect(r.problems[0]!.fix).toContain(join(tmpdir(), "~", "photos"));
  });
});
