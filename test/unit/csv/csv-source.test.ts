// --csv PATH: what is refused before any byte is read.
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, type ReadStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { openSource } from "../../../src/csv/csv-source.js";
import type { UsageError } from "../../../src/errors.js";

describe("openSource", () => {
  it("says how to export CSV from a Numbers document saved as a package (a folder)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shipctl-source-"));
    mkdirSync(join(dir, "prices.numbers"));
    const e = (await openSource("prices.numbers", dir, Readable.from([])).catch((x: unknown) => x)) as UsageError;
    expect(e.message).toBe("prices.numbers is a folder; --csv takes a CSV file");
    expect(e.hint).toMatch(/^In Numbers, use File > Export To > CSV/);
  });
});

describe("openSource: stdin (--csv -)", () => {
  it("a CSV a person is typing at a terminal: Ctrl-C ends the read (exit 130), not waiting for Ctrl-D", async () => {
    const stdin = new PassThrough();
    stdin.write("title\nA\n");
    const stop = new AbortController();
    const opening = openSource("-", tmpdir(), stdin, "--csv", stop.signal);
    setTimeout(() => stop.abort(new Error("Ctrl-C")), 20);
    const message = "interrupted while reading stdin; nothing was sent";
    await expect(opening).rejects.toMatchObject({ exitCode: 130, message });
  });

  it("closes every stream opened on its copy before removing the copy's folder (Windows cannot remove an open file)", async () => {
    const source = await openSource("-", tmpdir(), Readable.from([Buffer.from("title\nA\nB\n")]));
    // A reader that stopped early: one chunk read, the stream left open (as a refused row or Ctrl-C leaves it).
    const stream = source.open();
    await new Promise((resolve) => stream.once("readable", resolve));
    expect(stream.read(2)).not.toBeNull();
    await source.dispose();
    // Without waiting, the folder is removed under an open file: Linux allows it, Windows fails with ENOTEMPTY.
    expect((stream as ReadStream).closed).toBe(true);
    expect(existsSync(source.path)).toBe(false);
  });
});
