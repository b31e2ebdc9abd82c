// Photos as a camera or phone leaves them: a flat folder of IMG_0001.JPG ... with nothing in the names about sides.
import { copyFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { cameraDump, distinctJpeg, imgName } from "../../helpers/camera-dump.js";

const ORDER = ["front", "back", "top", "bottom", "left", "right"];
/** The JPEG made bigger than `bytes` with comment segments before the image, still a valid JPEG. */
function padded(jpeg: Buffer, bytes: number): Buffer {
  const segments: Buffer[] = [];
  for (let left = bytes - jpeg.length; left > 0; ) {
    const n = Math.min(left, 65_537);
    const seg = Buffer.alloc(Math.max(n, 4));
    seg[0] = 0xff;
    seg[1] = 0xfe;
    seg.writeUInt16BE(seg.length - 2, 2);
    segments.push(seg);
    left -= seg.length;
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

describe("--by-order on a flat camera dump", () => {
  it("takes the first six (in name order) as the box and the next six as the art", async () => {
    const dir = await cameraDump();
    const r = await checkFolder(dir, { byOrder: true });
    expect(r.problems).toEqual([]);
    expect(r.photos.map((p) => `${p.group} ${p.side} ${p.file}`)).toEqual(
      ["box", "art"].flatMap((g, gi) => ORDER.map((s, si) => `${g} ${s} ${imgName(gi * 6 + si + 1)}`)),
    );
  });

  it("names the count when the folder does not hold exactly twelve photos", async () => {
    const dir = await cameraDump(13);
    const r = await checkFolder(dir, { byOrder: true });
    expect(r.problems).toEqual([expect.objectContaining({ file: "", problem: expect.stringMatching(/^13 photos in the folder .*needs exactly 12/) })]);
  });

  it("refuses a flat folder whose names say their sides: name order would put art-back.jpg first", async () => {
    const r = await checkFolder(fixture("photos/flat"), { byOrder: true });
    expect(r.problems).toEqual([expect.objectContaining({ problem: expect.stringContaining("12 file names say their group and side") })]);
    expect(r.problems[0]!.fix).toContain("drop --by-order");
  });

  it("says 'an art/ folder' when only box/ is there", async () => {
    const dir = tempDir("shipctl-dump-");
    await cameraDump(6, join(dir, "box"));
    const r = await checkFolder(dir, { byOrder: true });
    expect(r.problems.map((p) => p.problem)).toEqual(["missing: --by-order needs an art/ folder"]);
  });
});

describe("every problem of a folder at once", () => {
  async function dumpWithBadPhotos(): Promise<string> {
    const dir = await cameraDump();
    writeFileSync(join(dir, imgName(3)), padded(readFileSync(join(dir, imgName(3))), 1_200_000));
    copyFileSync(fixture("photos/bad-types/box-top.heic"), join(dir, "IMG_0009.HEIC"));
    return dir;
  }

  it("a flat dump without --by-order names the oversized and the HEIC photo beside the missing sides", async () => {
    const dir = await dumpWithBadPhotos();
    const r = await checkFolder(dir);
    const byFile = Object.fromEntries(r.problems.map((p) => [p.file, p.problem]));
    expect(byFile[imgName(3)]).toContain("over the 1,048,576 bytes limit");
    expect(byFile["IMG_0009.HEIC"]).toContain("HEIC");
    expect(r.problems.find((p) => p.problem.includes("12 sides"))?.fix).toContain("--by-order");
    // --fit will shrink the photo once it has a side: only the HEIC remains a problem of its own.
    const fit = await checkFolder(dir, { fit: true });
    expect(fit.problems.map((p) => p.file)).not.toContain(imgName(3));
    expect(fit.problems.map((p) => p.file)).toContain("IMG_0009.HEIC");
  });

  it("--by-order with a wrong count still names the bad photos", async () => {
    const dir = await dumpWithBadPhotos();
    writeFileSync(join(dir, imgName(13)), await distinctJpeg(13));
    const r = await checkFolder(dir, { byOrder: true });
    expect(r.problems.map((p) => p.file).sort()).toEqual(["", imgName(3), "IMG_0009.HEIC"].sort());
  });
});

describe("identical photos and names", () => {
  it("flags one photo used for two sides, naming both files", async () => {
    const dir = await cameraDump();
    copyFileSync(join(dir, imgName(2)), join(dir, imgName(8)));
    const r = await checkFolder(dir, { byOrder: true });
    expect(r.problems).toEqual([
      expect.objectContaining({ file: `${imgName(2)}, ${imgName(8)}`, problem: "the same photo, byte for byte, for box back and art back" }),
    ]);
  });

  it("photos alike in size and first 64 KiB but not in the rest are not flagged", async () => {
    const dir = await cameraDump();
    const big = padded(await distinctJpeg(50), 100_000);
    const other = Buffer.from(big);
    other[90_000] = other[90_000]! ^ 0xff; // inside a comment segment: still a valid JPEG, different bytes
    writeFileSync(join(dir, imgName(1)), big);
    writeFileSync(join(dir, imgName(7)), other);
    expect((await checkFolder(dir, { byOrder: true })).problems).toEqual([]);
    writeFileSync(join(dir, imgName(7)), big);
    expect((await checkFolder(dir, { byOrder: true })).problems.map((p) => p.file)).toEqual([`${imgName(1)}, ${imgName(7)}`]);
  });

  it("a JPEG named .HEIC gets the same note as a PNG named .jpg", async () => {
    const dir = await cameraDump();
    renameSync(join(dir, imgName(9)), join(dir, "IMG_0009.HEIC"));
    writeFileSync(join(dir, imgName(4)), await sharp(await distinctJpeg(40)).png().toBuffer());
    const r = await checkFolder(dir, { byOrder: true });
    expect(r.problems).toEqual([]);
    expect(r.warnings.map((w) => `${w.file} ${w.problem}`).sort()).toEqual([
      "IMG_0004.JPG is a PNG file despite its name",
      "IMG_0009.HEIC is a JPEG file despite its name",
    ]);
  });
});
