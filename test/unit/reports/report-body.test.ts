import busboy from "busboy";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { reportBody } from "../../../src/reports/report-body.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
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

async function copied(folder: string): Promise<{ dir: string; check: Awaited<ReturnType<typeof checkFolder>> }> {
  const dir = join(mkdtempSync(join(tmpdir(), "shipctl-mp-")), folder);
  cpSync(fixture("photos", folder), dir, { recursive: true });
  return { dir, check: await checkFolder(dir) };
}

describe("report multipart body", () => {
  it("sends box[] x6 then art[] x6 in side order, with names and types by content, and an exact length", async () => {
    const check = await checkFolder(fixture("photos/renamed-png"));
    const body = await reportBody(check.photos);
    const { contentType, stream } = body.open();
    const bytes = await readAll(stream);
    expect(bytes.length).toBe(body.length);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=\S+$/);
    const parts = await parse(bytes, contentType);
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

  it("opens a fresh encoding each time, of the same length, under the boundary its type names", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const body = await reportBody(check.photos);
    for (let i = 0; i < 2; i++) {
      const { contentType, stream } = body.open();
      const bytes = await readAll(stream);
      expect(bytes.length).toBe(body.length);
      expect(bytes.subarray(-(contentType.split("boundary=")[1]!.length + 6)).toString("latin1")).toBe(`--${contentType.split("boundary=")[1]}--\r\n`);
      expect((await parse(bytes, contentType)).map((p) => p.sha256)).toEqual(check.photos.map((p) => sha(p.path)));
    }
  });

  it("fails the stream, naming the photo, rather than send fewer bytes than announced when a file shrank", async () => {
    const { dir, check } = await copied("nested");
    const body = await reportBody(check.photos);
    truncateSync(join(dir, "art", "top.png"), 10);
    await expect(readAll(body.open().stream)).rejects.toThrow(`${join("art", "top.png")} changed while it was being sent`);
  });

  it("fails the stream rather than send other bytes than checked when a file grew", async () => {
    const { dir, check } = await copied("nested");
    const body = await reportBody(check.photos);
    appendFileSync(join(dir, "box", "front.jpg"), Buffer.alloc(5000, 1));
    await expect(readAll(body.open().stream)).rejects.toThrow(`${join("box", "front.jpg")} changed while it was being sent`);
  });

  it("refuses to build a body from a photo changed since its check", async () => {
    const { dir, check } = await copied("nested");
    truncateSync(join(dir, "box", "left.jpg"), 10);
    await expect(reportBody(check.photos)).rejects.toThrow(`${join("box", "left.jpg")} changed`);
  });

  it("tells its running total of bytes handed on, from 0 again for each encoding opened", async () => {
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const progress: number[] = [];
    const body = await reportBody(check.photos, { onProgress: (n) => progress.push(n) });
    await readAll(body.open().stream);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(body.length);
    const first = progress.length;
    await readAll(body.open().stream);
    expect(progress[first]).toBeLessThan(body.length);
    expect(progress.at(-1)).toBe(body.length);
  });

  it("says when it hands on its last chunk: once per encoding, after every photo was taken, before the closing line", async () => {
    const check = await checkFolder(fixture("photos/nested"));
    const events: string[] = [];
    let handed = 0;
    const body = await reportBody(check.photos, { onProgress: (n) => (handed = n), onLastChunk: () => events.push(`last at ${handed}`) });
    for await (const c of body.open().stream) events.push(`chunk ${(c as Buffer).length}`);
    // Told before the closing line was handed on: every byte but the closing line's had gone.
    const closing = Number(events.at(-1)!.split(" ")[1]);
    expect(events.filter((e) => e.startsWith("last"))).toEqual([`last at ${body.length - closing}`]);
    expect(events.at(-2)).toMatch(/^last at/);
    await readAll(body.open().stream);
    expect(events.filter((e) => e.startsWith("last"))).toHaveLength(2);
  });

  it("fails the stream without its closing line when the last-chunk hook fails (the upload is cut short)", async () => {
    const check = await checkFolder(fixture("photos/nested"));
    const body = await reportBody(check.photos, {
      onLastChunk: () => {
        throw new Error("the ledger cannot be written");
      },
    });
    await expect(readAll(body.open().stream)).rejects.toThrow("the ledger cannot be written");
  });
});
