import { describe, expect, it } from "vitest";
import { declaredToUtf8, decodeCsvBytes, detectEncoding, firstInvalidUtf8, incompleteUtf8Tail } from "../../../src/csv/encoding.js";
import { UsageError } from "../../../src/errors.js";
import { chunked } from "../../helpers/csv-bytes.js";

async function decode(bytes: Buffer, size = 3): Promise<string> {
  const parts: Buffer[] = [];
  for await (const b of decodeCsvBytes(chunked(bytes, size), "f.csv")) parts.push(b);
  return Buffer.concat(parts).toString("utf8");
}

describe("detectEncoding", () => {
  it("tells the encodings apart by their byte-order mark", () => {
    expect(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), "f")).toEqual({ encoding: "utf-8 with BOM", bomLength: 3 });
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0]), "f")).toEqual({ encoding: "utf-16le", bomLength: 2 });
    expect(detectEncoding(Buffer.from([0xfe, 0xff, 0, 0x61]), "f")).toEqual({ encoding: "utf-16be", bomLength: 2 });
    expect(detectEncoding(Buffer.from("title,value"), "f")).toEqual({ encoding: "utf-8", bomLength: 0 });
  });

  it("refuses a workbook and UTF-16 without a BOM, naming the file and how to re-export", () => {
    expect(() => detectEncoding(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]), "ledger.xlsx")).toThrow(/ledger.xlsx is an Excel workbook/);
    const noBom = Buffer.from("title,value\r\n", "utf16le");
    try {
      detectEncoding(noBom, "u.csv");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toMatch(/u.csv looks like UTF-16/);
      expect((e as UsageError).hint).toMatch(/CSV UTF-8/);
    }
  });
});

describe("workbooks", () => {
  /** A zip's first local header (30 bytes) and its first entry's name and bytes. */
  const zipStarting = (entry: string): Buffer => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from(entry, "latin1")]);
  const refusal = (head: Buffer, file: string): UsageError => {
    try {
      detectEncoding(head, file);
    } catch (e) {
      return e as UsageError;
    }
    throw new Error("not refused");
  };

  it("names an OpenDocument file (LibreOffice) as such, with LibreOffice's way to export CSV, whatever its name", () => {
    for (const file of ["ledger.ods", "export.csv"]) {
      const e = refusal(zipStarting("mimetypeapplication/vnd.oasis.opendocument.spreadsheet"), file);
      expect(e.message).toBe(`${file} is a spreadsheet workbook (OpenDocument, as LibreOffice saves it), not a CSV file`);
      expect(e.hint).toMatch(/^In LibreOffice Calc, use File > Save As, choose the type "Text CSV \(.csv\)"/);
      expect(e.hint).not.toMatch(/Excel/);
    }
  });

  it("names Excel (.xlsx, .xls) and Numbers files with their own advice", () => {
    expect(refusal(zipStarting("[Content_Types].xml"), "ledger.xlsx").message).toBe("ledger.xlsx is an Excel workbook, not a CSV file");
    expect(refusal(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), "old.xls").hint).toMatch(/^In Excel, use File > Save As/);
    const numbers = refusal(zipStarting("Index/Document.iwa"), "prices.numbers");
    expect(numbers.message).toBe("prices.numbers is a Numbers spreadsheet, not a CSV file");
    expect(numbers.hint).toMatch(/^In Numbers, use File > Export To > CSV/);
    expect(refusal(zipStarting("notes.txt"), "a.zip").message).toBe("a.zip is a zip archive (a spreadsheet workbook?), not a CSV file");
  });

  it("reads far enough into a file sent in small pieces to tell an OpenDocument file", async () => {
    const bytes = Buffer.concat([zipStarting("mimetypeapplication/vnd.oasis.opendocument.spreadsheet"), Buffer.alloc(200)]);
    await expect(decode(bytes)).rejects.toThrow(/f.csv is a spreadsheet workbook \(OpenDocument/);
  });
});

describe("UTF-8 helpers", () => {
  it("finds a multi-byte character cut at the end of a chunk", () => {
    const e = Buffer.from("é"); // c3 a9
    expect(incompleteUtf8Tail(Buffer.concat([Buffer.from("ab"), e.subarray(0, 1)]))).toBe(1);
    expect(incompleteUtf8Tail(Buffer.concat([Buffer.from("ab"), e]))).toBe(0);
    const euro = Buffer.from("€"); // e2 82 ac
    expect(incompleteUtf8Tail(euro.subarray(0, 2))).toBe(2);
    expect(incompleteUtf8Tail(Buffer.from("abc"))).toBe(0);
  });

  it("points at the first byte that is not UTF-8", () => {
    expect(firstInvalidUtf8(Buffer.from("Caf\xe9!", "latin1"))).toBe(3);
    expect(firstInvalidUtf8(Buffer.from("ok"))).toBe(2);
  });
});

describe("decodeCsvBytes", () => {
  it("passes UTF-8 through (BOM removed) even when chunks split characters", async () => {
    const text = "title,city\r\nÉtude,Zürich\r\n日本,東京\r\n";
    expect(await decode(Buffer.from(text), 1)).toBe(text);
    expect(await decode(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 2)).toBe(text);
  });

  it("transcodes UTF-16 LE and BE to UTF-8", async () => {
    const text = "title\tcity\r\nÉtude\tZürich\r\n";
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    expect(await decode(le, 3)).toBe(text);
    const be = Buffer.from(text, "utf16le").swap16();
    expect(await decode(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 5)).toBe(text);
  });

  it("refuses Latin-1 bytes, naming the line and showing the text as Latin-1 would read it", async () => {
    const latin1 = Buffer.from("title,city\nA,Paris\nB,Montr\xe9al\n", "latin1");
    const error = await decode(latin1, 4).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/f.csv is not UTF-8 text: line 3 holds the byte 0xE9 \("B,Montréal" if read as Latin-1\)/);
    expect((error as UsageError).hint).toMatch(/Save As > "CSV UTF-8/);
  });
});

describe("--encoding: a declared encoding", () => {
  const read = async (bytes: Buffer, encoding: string) => {
    const out: Buffer[] = [];
    for await (const chunk of declaredToUtf8(chunked(bytes, 3), encoding, "x.csv")) out.push(chunk);
    return Buffer.concat(out).toString("utf8");
  };

  it("turns Windows-1252 bytes into UTF-8, a character split across chunks included", async () => {
    expect(await read(Buffer.from([0xc9, 0x74, 0x75, 0x64, 0x65, 0x20, 0xa3, 0x20, 0x80]), "windows-1252")).toBe("Étude £ €");
    expect(await read(Buffer.from("ab\u3042c", "utf16le"), "utf-16le")).toBe("ab\u3042c");
  });

  it("refuses a byte-order mark that says otherwise, and bytes that are not the declared encoding", async () => {
    await expect(read(Buffer.from("\ufeffa,b\n", "utf8"), "windows-1252")).rejects.toThrow("starts with a UTF-8 byte-order mark, but --encoding says windows-1252");
    await expect(read(Buffer.from([0x82, 0xa0, 0xff, 0xff]), "shift_jis")).rejects.toThrow("is not valid shift_jis text");
  });

  it("refuses a UTF-16 byte-order mark of the other byte order, whose text would read as other characters", async () => {
    const bigEndian = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("title,city\n", "utf16le").swap16()]);
    await expect(read(bigEndian, "utf-16le")).rejects.toThrow("starts with a UTF-16 byte-order mark, but --encoding says utf-16le");
    expect(await read(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("ab", "utf16le")]), "utf-16le")).toBe("ab");
  });
});
