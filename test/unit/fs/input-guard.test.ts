// The checks every input reader makes as bytes stream past (src/fs/input-guard.ts), and the CSV reader's check of
// decoded text: UTF-16 text (zero bytes in every ASCII character) is not taken for NUL bytes, a NUL character in it is.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readChecked } from "../../../src/fs/input-guard.js";
import { openCsv } from "../../../src/csv/csv-reader.js";

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);

describe("readChecked", () => {
  it("refuses the first NUL byte, naming its line", async () => {
    await expect(readChecked(Readable.from([Buffer.from("a,b\n1,2\n"), Buffer.from("3,\0")]), "in.csv", { firstLine: false })).rejects.toThrow(
      "in.csv holds a NUL byte (line 3): it is binary data, not a text file",
    );
  });

  it("a NUL byte alone as the whole input is refused too", async () => {
    await expect(readChecked(Readable.from([Buffer.from([0])]), "stdin", { firstLine: false })).rejects.toThrow("stdin holds a NUL byte (line 1)");
  });

  it("passes UTF-16 text with its byte-order mark, split anywhere", async () => {
    const bytes = utf16le("title\r\nBlue\r\n");
    const chunks = [bytes.subarray(0, 1), bytes.subarray(1, 5), bytes.subarray(5)];
    expect(await readChecked(Readable.from(chunks), "stdin", { firstLine: true })).toEqual(bytes);
  });

  it("firstLine: refuses a first line that has not ended after 256 KB", async () => {
    const chunks = Array.from({ length: 5 }, () => Buffer.alloc(64 * 1024, "a"));
    await expect(readChecked(Readable.from(chunks), "stdin", { firstLine: true })).rejects.toThrow("stdin: the first line does not end within 256 KB");
  });
});

describe("openCsv: NUL characters in decoded text", () => {
  it("a NUL character in UTF-16 text is refused naming its line", async () => {
    const rows = async () => {
      const csv = await openCsv(Readable.from([utf16le("title\r\nBlue\r\nR\0d\r\n")]), "u16.csv");
      for await (const _ of csv.rows) void _;
    };
    await expect(rows()).rejects.toThrow("u16.csv holds a NUL byte (line 3)");
  });

  it("a file that starts with NUL bytes is called binary, not UTF-16 without a byte-order mark", async () => {
    await expect(openCsv(Readable.from([Buffer.alloc(4096)]), "zeros.csv")).rejects.toThrow("zeros.csv holds a NUL byte (line 1)");
  });
});
