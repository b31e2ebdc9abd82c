import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectFile } from "../../../src/reports/photo-sniff.js";
import { fixture } from "../../helpers/cli.js";

const sniffFile = async (path: string) => (await inspectFile(path)).sniffed;

const tmp = mkdtempSync(join(tmpdir(), "shipctl-sniff-"));
function write(name: string, data: Buffer): string {
  const path = join(tmp, name);
  writeFileSync(path, data);
  return path;
}

describe("sniffFile", () => {
  it("reads JPEG dimensions from the frame header", async () => {
    expect(await sniffFile(fixture("photos/nested/box/front.jpg"))).toEqual({ kind: "photo", type: "jpeg", width: 240, height: 180 });
  });

  it("reads PNG dimensions from IHDR", async () => {
    expect(await sniffFile(fixture("photos/nested/art/left.png"))).toEqual({ kind: "photo", type: "png", width: 240, height: 180 });
  });

  it("judges by content: a PNG named .jpg is a PNG", async () => {
    expect(await sniffFile(fixture("photos/renamed-png/box-front.jpg"))).toMatchObject({ kind: "photo", type: "png" });
  });

  it("names HEIC, WebP and TIFF", async () => {
    expect(await sniffFile(fixture("photos/bad-types/box-top.heic"))).toEqual({ kind: "other", format: "heic" });
    expect(await sniffFile(fixture("photos/bad-types/art-right.webp"))).toEqual({ kind: "other", format: "webp" });
    expect(await sniffFile(fixture("photos/bad-types/art-bottom.tif"))).toEqual({ kind: "other", format: "tiff" });
  });

  it("finds a truncated JPEG (no end-of-image marker)", async () => {
    expect(await sniffFile(fixture("photos/bad-types/box-back.jpg"))).toMatchObject({ kind: "truncated", type: "jpeg" });
  });

  it("finds every truncated JPEG when several are checked at once, as folders are", async () => {
    // sharp's stats() let some of these through as whole when two decoded at the same time.
    const whole = readFileSync(fixture("photos/nested/box/front.jpg"));
    const cut = write("cut-at-once.jpg", Buffer.concat([whole.subarray(0, Math.floor(whole.length / 2)), Buffer.alloc(100, 0x33)]));
    const paths = Array.from({ length: 40 }, (_, i) => (i % 2 ? cut : fixture("photos/bad-types/box-back.jpg")));
    const kinds = await Promise.all(paths.map(async (path) => (await sniffFile(path)).kind));
    expect(kinds.filter((kind) => kind !== "truncated")).toEqual([]);
  });

  it("finds a JPEG cut before its frame header", async () => {
    const whole = readFileSync(fixture("photos/nested/box/front.jpg"));
    expect(await sniffFile(write("cut-early.jpg", whole.subarray(0, 40)))).toMatchObject({ kind: "truncated", type: "jpeg" });
  });

  it("accepts zero padding after the JPEG end marker", async () => {
    const whole = readFileSync(fixture("photos/nested/box/front.jpg"));
    expect(await sniffFile(write("padded.jpg", Buffer.concat([whole, Buffer.alloc(100)])))).toMatchObject({ kind: "photo", type: "jpeg" });
  });

  it("accepts data after the end marker when the image decodes: a Samsung trailer, a Motion Photo's video", async () => {
    const whole = readFileSync(fixture("photos/nested/box/front.jpg"));
    const trailer = Buffer.concat([Buffer.from("SEFHe"), Buffer.alloc(300, 0x5a), Buffer.from("SEFT")]);
    const video = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypmp42"), Buffer.alloc(2000, 0x11)]);
    expect(await sniffFile(write("samsung.jpg", Buffer.concat([whole, trailer])))).toEqual({ kind: "photo", type: "jpeg", width: 240, height: 180 });
    expect(await sniffFile(write("motion.jpg", Buffer.concat([whole, video])))).toMatchObject({ kind: "photo", type: "jpeg" });
    // Cut short, with bytes after the cut that are no end marker: still truncated, because it does not decode.
    const cut = Buffer.concat([whole.subarray(0, Math.floor(whole.length / 2)), Buffer.alloc(100, 0x33)]);
    expect(await sniffFile(write("cut-padded.jpg", cut))).toMatchObject({ kind: "truncated", type: "jpeg" });
  });

  it("finds a JPEG frame header placed after a large APP segment beyond the first read", async () => {
    const whole = readFileSync(fixture("photos/nested/box/front.jpg"));
    // Insert two 65 KB APP1 segments right after SOI, pushing SOF past the first 64 KiB read.
    const app = Buffer.alloc(65_000);
    app[0] = 0xff;
    app[1] = 0xe1;
    app.writeUInt16BE(65_000 - 2, 2);
    const data = Buffer.concat([whole.subarray(0, 2), app, app, whole.subarray(2)]);
    expect(await sniffFile(write("big-app.jpg", data))).toEqual({ kind: "photo", type: "jpeg", width: 240, height: 180 });
  });

  it("finds a truncated PNG and a damaged IHDR", async () => {
    const whole = readFileSync(fixture("photos/nested/art/left.png"));
    expect(await sniffFile(write("cut.png", whole.subarray(0, whole.length - 20)))).toMatchObject({ kind: "truncated", type: "png" });
    const damaged = Buffer.from(whole);
    damaged[17] = damaged[17]! ^ 0xff; // a byte of the width: the CRC no longer matches
    expect(await sniffFile(write("damaged.png", damaged))).toMatchObject({ kind: "corrupt", type: "png" });
    expect(await sniffFile(write("tiny.png", whole.subarray(0, 5)))).toMatchObject({ kind: "truncated", type: "png" });
  });

  it("accepts data after the PNG end chunk when the image decodes: a trailer, zero padding", async () => {
    const whole = readFileSync(fixture("photos/nested/art/left.png"));
    const trailer = Buffer.concat([Buffer.from("SEFHe"), Buffer.alloc(300, 0x5a), Buffer.from("SEFT")]);
    expect(await sniffFile(write("trailer.png", Buffer.concat([whole, trailer])))).toEqual({ kind: "photo", type: "png", width: 240, height: 180 });
    expect(await sniffFile(write("padded.png", Buffer.concat([whole, Buffer.alloc(100)])))).toMatchObject({ kind: "photo", type: "png" });
    // Cut short, with bytes after the cut that are no end chunk: still truncated, because it does not decode.
    const cut = Buffer.concat([whole.subarray(0, Math.floor(whole.length / 2)), Buffer.alloc(100, 0x33)]);
    expect(await sniffFile(write("cut-padded.png", cut))).toMatchObject({ kind: "truncated", type: "png" });
  });

  it("calls empty files empty and unknown bytes unknown", async () => {
    expect(await sniffFile(write("empty.jpg", Buffer.alloc(0)))).toEqual({ kind: "empty" });
    expect(await sniffFile(write("text.jpg", Buffer.from("hello, this is not a photo")))).toEqual({ kind: "unknown" });
  });

  it("tells AVIF from HEIC and other ISO media", async () => {
    const ftyp = (brand: string, compat: string) =>
      Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from(`ftyp${brand}`), Buffer.alloc(4), Buffer.from(compat), Buffer.alloc(40)]);
    expect(await sniffFile(write("a.avif", ftyp("avif", "mif1")))).toEqual({ kind: "other", format: "avif" });
    expect(await sniffFile(write("b.heic", ftyp("mif1", "heic")))).toEqual({ kind: "other", format: "heic" });
    expect(await sniffFile(write("c.mov", ftyp("qt  ", "qt  ")))).toEqual({ kind: "other", format: "video" });
  });
});
