import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { expectObject, readJsonInput } from "../../../src/input/json-file.js";
import { createTestIO } from "../../helpers/test-io.js";

const dir = mkdtempSync(join(tmpdir(), "shipctl-json-"));
function file(name: string, content: string): string {
  writeFileSync(join(dir, name), content);
  return name;
}

describe("readJsonInput", () => {
  it("stdin a person is typing at a terminal: Ctrl-C ends the read (exit 130), not waiting for Ctrl-D", async () => {
    const stdin = new PassThrough();
    stdin.write('{"name":');
    const io = { ...createTestIO({ tty: true }), stdin };
    const stop = new AbortController();
    const reading = readJsonInput({ io, cwd: dir, signal: stop.signal }, "-");
    setTimeout(() => stop.abort(new Error("Ctrl-C")), 20);
    const message = "interrupted while reading stdin; nothing was sent";
    await expect(reading).rejects.toMatchObject({ exitCode: 130, message });
  });

  it("reads a file relative to the working directory, byte-order mark and all", async () => {
    const name = file("bom.json", '\uFEFF{"name":"Ada"}');
    expect(await readJsonInput({ io: createTestIO(), cwd: dir }, name)).toEqual({ value: { name: "Ada" }, label: name });
  });

  it("reads a file in UTF-16 with a byte-order mark, as Windows PowerShell's > writes it", async () => {
    const json = '{"name":"Zoë 🎨"}\r\n';
    const le = "utf16le.json";
    writeFileSync(join(dir, le), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, "utf16le")]));
    expect(await readJsonInput({ io: createTestIO(), cwd: dir }, le)).toEqual({ value: { name: "Zoë 🎨" }, label: le });
    const be = "utf16be.json";
    writeFileSync(join(dir, be), Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(json, "utf16le").swap16()]));
    expect(await readJsonInput({ io: createTestIO(), cwd: dir }, be)).toEqual({ value: { name: "Zoë 🎨" }, label: be });
    const nul = "utf16nul.json";
    writeFileSync(join(dir, nul), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}\n\0', "utf16le")]));
    await expect(readJsonInput({ io: createTestIO(), cwd: dir }, nul)).rejects.toThrow(`${nul} holds a NUL byte (line 2)`);
  });

  it("reads stdin in UTF-16 with a byte-order mark, as cmd's `< file` passes a Notepad \"Unicode\" file", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"name":"Zoë"}\r\n', "utf16le")]);
    const io = { ...createTestIO(), stdin: Readable.from([bytes]) };
    expect(await readJsonInput({ io, cwd: dir }, "-")).toEqual({ value: { name: "Zoë" }, label: "stdin" });
  });

  it("reads stdin for -", async () => {
    expect(await readJsonInput({ io: createTestIO({ stdin: '{"a":1}' }), cwd: dir }, "-")).toEqual({ value: { a: 1 }, label: "stdin" });
  });

  it("refuses a blank file name (an unset variable) naming the flag, not reading the working folder", async () => {
    await expect(readJsonInput({ io: createTestIO(), cwd: dir }, "")).rejects.toThrow("--file needs a file name, or - for stdin");
    await expect(readJsonInput({ io: createTestIO(), cwd: dir }, "  ", "--input")).rejects.toThrow("--input needs a file name");
  });

  it("names a missing file", async () => {
    await expect(readJsonInput({ io: createTestIO(), cwd: dir }, "nope.json")).rejects.toThrow("cannot read nope.json: no such file");
  });

  it("names a file that is not JSON, with the parser's position", async () => {
    const name = file("bad.json", "{name: 'Ada'}");
    const err = await readJsonInput({ io: createTestIO(), cwd: dir }, name).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^bad\.json is not valid JSON: /);
  });

  it("says an empty stdin is empty", async () => {
    await expect(readJsonInput({ io: createTestIO({ stdin: "  \n" }), cwd: dir }, "-")).rejects.toThrow("stdin is empty: expected a JSON object");
  });

  it("wants one object, not a list", () => {
    expect(() => expectObject({ value: [{}], label: "a.json" }, "address")).toThrow("a.json must hold one address as a JSON object, but holds a list");
  });
});
