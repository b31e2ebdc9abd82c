import busboy from "busboy";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { reportBody } from "../../../src/reports/report-body.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { buildMultipartBody, READ_CHUNK_BYTES } from "../../../src/reports/multipart-body.js";
import { fixture } from "../../helpers/cli.js";

interface ParsedPart {
  name: string;
  filename: string;
  mimeType: string;
  sha256: string;
  bytes: number;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function parse(body: Buffer, contentType: string): Promise<ParsedPart[]> {
  return new Promise((resolve, reject) => {
    const parts: ParsedPart[] = [];
    const bb = busboy({ headers: { "content-type": contentType } });
    bb.on("file", (name, file, info) => {
      const hash = createHash("sha256");
      let bytes = 0;
      file.on("data", (d: Buffer) => {
        hash.update(d);
        bytes += d.length;
      });
      file.on("end", () => parts.push({ name, filename: info.filename ?? "", mimeType: info.mimeType, sha256: hash.digest("hex"), bytes }));
    });
    bb.on("close", () => resolve(parts));
    bb.on("error", reject);
    bb.end(body);
  });
}

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("report multipart body", () => {
  it("sends box[] x6 then art[] x6 in side order, with names and types by content, and an exact length", async () => {
    const check = await checkFolder(fixture("photos/renamed-png"));
    const body = reportBody(check.photos);
    const bytes = await readAll(body.open());
    expect(bytes.length).toBe(body.length);
    expect(body.contentType).toMatch(/^multipart\/form-data; boundary=----shipctl-[0-9a-f]{24}$/);
    const parts = await parse(bytes, body.contentType);
    expect(parts.map((p) => `${p.name} ${p.filename} ${p.mimeType}`)).toEqual([
      "box[] box-front.png image/png",
      "box[] box-back.jpg image/jpeg",
      "box[] box-top.jpg image/jpeg",
      "box[] box-bottom.jpg image/jpeg",
      "box[] box-left.jpg image/jpeg",
      "box[] box-right.jpg image/jpeg",
      "art[] art-front.jpg image/jpeg",
      "art[] art-back.jpg image/jpeg",
      "art[] art-top.jpg image/jpeg",
      "art[] art-bottom.jpg image/jpeg",
      "art[] art-left.jpg image/jpeg",
      "art[] art-right.jpg image/jpeg",
    ]);
    expect(parts.map((p) => p.sha256)).toEqual(check.photos.map((p) => sha(p.path)));
  });

  it("opens a fresh stream each time", async () => {
    const check = await checkFolder(fixture("photos/nested"));
    const body = reportBody(check.photos, { boundary: "----fixed-boundary" });
    const first = await readAll(body.open());
    const second = await readAll(body.open());
    expect(second.equals(first)).toBe(true);
    expect(first.subarray(0, 20).toString("latin1")).toBe("------fixed-boundary");
    expect(first.subarray(-24).toString("latin1")).toBe("------fixed-boundary--\r\n");
  });

  it("sends each photo as one chunk with its part header, and a file larger than a read chunk in several", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const body = reportBody(check.photos);
    const sizes: number[] = [];
    const received: Buffer[] = [];
    for await (const c of body.open()) {
      sizes.push((c as Buffer).length);
      received.push(c as Buffer);
    }
    const bytes = Buffer.concat(received);
    expect(bytes.length).toBe(body.length);
    // One chunk per photo (header and file together), the oversized one (over 1 MiB) in two, then the closing line.
    const big = check.photos.filter((p) => p.bytes > READ_CHUNK_BYTES);
    expect(big).toHaveLength(1);
    expect(sizes).toHaveLength(12 + 1 + 1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(READ_CHUNK_BYTES + 200);
    const parts = await parse(bytes, body.contentType);
    expect(parts.map((p) => p.sha256)).toEqual(check.photos.map((p) => sha(p.path)));
  });

  it("closes the file it was reading when the stream is destroyed midway", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    // box/front, the first part, is larger than a read chunk: after the first chunk its file is still open.
    expect(check.photos[0]!.bytes).toBeGreaterThan(READ_CHUNK_BYTES);
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const before = existsSync("/proc/self/fd") ? openFiles() : undefined;
    const stream = reportBody(check.photos).open();
    await once(stream, "readable");
    if (before !== undefined) expect(openFiles()).toBe(before + 1);
    stream.destroy();
    await once(stream, "close");
    if (before !== undefined) expect(openFiles()).toBe(before);
  });

  it("fails the stream rather than send fewer bytes than announced when a file shrank", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "shipctl-mp-")), "nested");
    cpSync(fixture("photos/nested"), dir, { recursive: true });
    const check = await checkFolder(dir);
    truncateSync(join(dir, "art", "top.png"), 10);
    await expect(readAll(reportBody(check.photos).open())).rejects.toThrow(/changed while it was being sent/);
  });

  it("sends only the checked number of bytes when a file grew", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "shipctl-mp-")), "nested");
    cpSync(fixture("photos/nested"), dir, { recursive: true });
    const check = await checkFolder(dir);
    const { appendFileSync } = await import("node:fs");
    appendFileSync(join(dir, "box", "front.jpg"), Buffer.alloc(5000, 1));
    const body = reportBody(check.photos);
    expect((await readAll(body.open())).length).toBe(body.length);
  });

  it("tells its running total of bytes handed on, chunk by chunk, from 0 again for each stream opened", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const progress: number[] = [];
    const body = reportBody(check.photos, { onProgress: (n) => progress.push(n) });
    await readAll(body.open());
    // 12 photos (the one over 1 MiB in two chunks) and the closing line.
    expect(progress).toHaveLength(14);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(body.length);
    progress.length = 0;
    await readAll(body.open());
    expect(progress[0]).toBeLessThan(READ_CHUNK_BYTES + 200);
    expect(progress.at(-1)).toBe(body.length);
  });

  it("says when it hands on its last chunk: once per stream, after every photo was taken, before the closing line", async () => {
    const check = await checkFolder(fixture("photos/nested"));
    const events: string[] = [];
    let handed = 0;
    const body = reportBody(check.photos, { onProgress: (n) => (handed = n), onLastChunk: () => events.push(`last at ${handed}`) });
    const stream = body.open();
    for await (const c of stream) events.push(`chunk ${(c as Buffer).length}`);
    // Told before the closing line was handed on: every byte but the closing line's had gone.
    const closing = Number(events.at(-1)!.split(" ")[1]);
    expect(events.filter((e) => e.startsWith("last"))).toEqual([`last at ${body.length - closing}`]);
    expect(events.at(-2)).toMatch(/^last at/);
    await readAll(body.open());
    expect(events.filter((e) => e.startsWith("last"))).toHaveLength(2);
  });

  it("fails the stream without its closing line when the last-chunk hook fails (the upload is cut short)", async () => {
    const check = await checkFolder(fixture("photos/nested"));
    const body = reportBody(check.photos, {
      onLastChunk: () => {
        throw new Error("the ledger cannot be written");
      },
    });
    await expect(readAll(body.open())).rejects.toThrow("the ledger cannot be written");
  });

  it("escapes quotes in part names and file names", async () => {
    const path = fixture("photos/nested/box/front.jpg");
    const size = readFileSync(path).length;
    const body = buildMultipartBody([{ name: 'a"b', filename: 'x"y\\z.jpg', contentType: "image/jpeg", path, bytes: size }], { boundary: "B" });
    const text = (await readAll(body.open())).toString("latin1");
    expect(text).toContain('name="a\\"b"; filename="x\\"y\\\\z.jpg"');
    expect(text.length).toBe(body.length);
  });
});
