// Generates fixtures/photos/: small condition-report folders in every layout shipctl reads, and the broken cases it
// must name (HEIC, WebP, TIFF, truncated JPEG, a PNG saved as .jpg, a side missing, a side twice, an oversized JPEG
// with an EXIF orientation tag). Each photo shows its group and side, so a preview shows at a glance whether the
// order is right. Run: `node scripts/make-photo-fixtures.mjs` (the outputs are committed; rerun only to change them).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/photos");
const SIDES = ["front", "back", "top", "bottom", "left", "right"];
const COLOURS = { front: "#c0392b", back: "#2980b9", top: "#27ae60", bottom: "#8e44ad", left: "#d35400", right: "#16a085" };

function svg(group, side, width = 240, height = 180) {
  const shade = group === "box" ? "#d9c7a7" : "#f4f1ea";
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="100%" height="100%" fill="${shade}"/>` +
      `<rect x="12" y="12" width="${width - 24}" height="${height - 24}" fill="none" stroke="${COLOURS[side]}" stroke-width="10"/>` +
      `<text x="50%" y="45%" text-anchor="middle" font-family="sans-serif" font-size="30" font-weight="bold" fill="#222">${group.toUpperCase()}</text>` +
      `<text x="50%" y="70%" text-anchor="middle" font-family="sans-serif" font-size="30" fill="${COLOURS[side]}">${side}</text>` +
      `</svg>`,
  );
}

const jpeg = (group, side) => sharp(svg(group, side)).jpeg({ quality: 70 }).toBuffer();
const png = (group, side) => sharp(svg(group, side)).png({ compressionLevel: 9, palette: true }).toBuffer();

function put(rel, data) {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

/** Deterministic noise, so the oversized photo compresses badly and the same way on every run. */
function noise(width, height, seed = 42) {
  const data = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (x >> 16) & 0xff;
  }
  return data;
}

/** The first bytes of an iPhone HEIC: an `ftyp` box with brands heic/mif1, then the start of the `meta` box. */
function heicHeader() {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypheic"), Buffer.from([0, 0, 0, 0]), Buffer.from("mif1heic")]);
  const meta = Buffer.concat([Buffer.from([0, 0, 0x01, 0x00]), Buffer.from("meta"), Buffer.alloc(248, 0x11)]);
  return Buffer.concat([ftyp, meta]);
}

rmSync(root, { recursive: true, force: true });

// Valid: one folder per group, one file per side (box as JPEG, art as PNG).
for (const side of SIDES) {
  put(`nested/box/${side}.jpg`, await jpeg("box", side));
  put(`nested/art/${side}.png`, await png("art", side));
}

// Valid: flat names in every spelling people use, plus the clutter that must be ignored.
const flatNames = {
  box: ["box-front.jpg", "Box_Back.JPG", "box top.jpeg", "BOX-BOTTOM.jpg", "box_left.jpg", "Box Right.jpg"],
  art: ["art-front.PNG", "Art_Back.png", "art top.png", "art-bottom.jpg", "ART_LEFT.png", "art-right.jpeg"],
};
for (const group of ["box", "art"]) {
  for (const [i, name] of flatNames[group].entries()) {
    const isPng = name.toLowerCase().endsWith(".png");
    put(`flat/${name}`, isPng ? await png(group, SIDES[i]) : await jpeg(group, SIDES[i]));
  }
}
put("flat/.DS_Store", Buffer.from("\0\0\0\x01Bud1", "latin1"));
put("flat/Thumbs.db", Buffer.alloc(64, 0xd0));
put("flat/._box-front.jpg", Buffer.from("\0\x05\x16\x07\0\x02\0\0Mac OS X", "latin1"));

// Valid with --by-order: camera names, where natural order differs from plain string order.
const boxOrder = ["IMG_2.jpg", "IMG_9.jpg", "IMG_10.jpg", "IMG_11.jpg", "IMG_20.jpg", "IMG_100.jpg"];
const artOrder = ["DSC_0001.JPG", "DSC_0002.JPG", "DSC_0003.JPG", "DSC_0004.JPG", "DSC_0005.JPG", "DSC_0006.JPG"];
for (const [i, side] of SIDES.entries()) {
  put(`by-order/box/${boxOrder[i]}`, await jpeg("box", side));
  put(`by-order/art/${artOrder[i]}`, await jpeg("art", side));
}

// Valid: a PNG saved with a .jpg name (judged by content, sent as PNG).
for (const side of SIDES) {
  put(`renamed-png/box-${side}.jpg`, side === "front" ? await png("box", side) : await jpeg("box", side));
  put(`renamed-png/art-${side}.jpg`, await jpeg("art", side));
}

// A side missing (art left), and a camera file beside the others that names no side.
for (const group of ["box", "art"]) {
  for (const side of SIDES) if (!(group === "art" && side === "left")) put(`side-missing/${group}-${side}.jpg`, await jpeg(group, side));
}
put("side-missing/IMG_4471.jpg", await jpeg("art", "left"));

// A side twice: box front both as box/front.jpg and as box-front.jpg.
for (const side of SIDES) {
  put(`side-twice/box/${side}.jpg`, await jpeg("box", side));
  put(`side-twice/art/${side}.jpg`, await jpeg("art", side));
}
put("side-twice/box-front.jpg", await jpeg("box", "front"));

// Wrong types and broken files, all in one folder so every problem must be listed at once.
for (const group of ["box", "art"]) for (const side of SIDES) put(`bad-types/${group}-${side}.jpg`, await jpeg(group, side));
rmSync(join(root, "bad-types/box-top.jpg"));
put("bad-types/box-top.heic", heicHeader());
const whole = await jpeg("box", "back");
put("bad-types/box-back.jpg", whole.subarray(0, Math.floor(whole.length * 0.6)));
rmSync(join(root, "bad-types/art-right.jpg"));
put("bad-types/art-right.webp", await sharp(svg("art", "right")).webp().toBuffer());
rmSync(join(root, "bad-types/art-bottom.jpg"));
put("bad-types/art-bottom.tif", await sharp(svg("art", "bottom")).tiff().toBuffer());

// Oversized: box front is a noisy 1200x900 JPEG over 1,048,576 bytes, stored sideways with EXIF orientation 6
// (rotate 90° clockwise to view), as phones save portrait photos.
for (const side of SIDES) {
  if (side !== "front") put(`oversized/box/${side}.jpg`, await jpeg("box", side));
  put(`oversized/art/${side}.jpg`, await jpeg("art", side));
}
const big = await sharp(noise(1200, 900), { raw: { width: 1200, height: 900, channels: 3 } })
  .jpeg({ quality: 96 })
  .withMetadata({ orientation: 6 })
  .toBuffer();
if (big.length <= 1_048_576) throw new Error(`the oversized fixture came out at ${big.length} bytes; raise its quality or size`);
put("oversized/box/front.jpg", big);

console.log(`fixtures written to ${root}`);
