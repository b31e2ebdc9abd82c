// Photo folders as a camera or phone leaves them: IMG_0001.JPG ..., nothing in the names about sides. Made with sharp
// at test time (a few hundred bytes each), each photo its own colour, so no two are the same bytes.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { tempDir } from "./cli.js";

export const imgName = (n: number) => `IMG_${String(n).padStart(4, "0")}.JPG`;

/** A small JPEG of its own colour. */
export async function distinctJpeg(n: number): Promise<Buffer> {
  const background = { r: (n * 37) % 256, g: (n * 91) % 256, b: (n * 53) % 256 };
  return sharp({ create: { width: 16, height: 12, channels: 3, background } }).jpeg().toBuffer();
}

/** A flat folder of `count` camera-named JPEGs (IMG_0001.JPG ...), each different. */
export async function cameraDump(count = 12, dir = tempDir("shipctl-dump-")): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= count; n++) writeFileSync(join(dir, imgName(n)), await distinctJpeg(n));
  return dir;
}
