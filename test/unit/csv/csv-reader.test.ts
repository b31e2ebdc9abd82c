import { describe, expect, it } from "vitest";
import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openCsv } from "../../../src/csv/csv-reader.js";
import { sniffDelimiter } from "../../../src/csv/delimiter.js";
import { UsageError } from "../../../src/errors.js";
import { chunked, collectRows, fixtureBytes } from "../../helpers/csv-bytes.js";
import { tempDir } from "../../helpers/cli.js";

async function read(bytes: Buffer | string, size = 64) {
  const csv = await openCsv(chunked(bytes, size), "f.csv");
  return { csv, rows: await collectRows(csv.rows) };
}

describe("sniffDelimiter", () => {
  it("picks the delimiter that splits the header into the most fields, ignoring quoted ones", () => {
    expect(sniffDelimiter("title,value,length")).toBe(",");
    expect(sniffDelimiter("title;value;length")).toBe(";");
    expect(sniffDelimiter("title\tvalue\tlength")).toBe("\t");
    expect(sniffDelimiter('"a;b";"c,d";e')).toBe(";");
    expect(sniffDelimiter("title")).toBe(",");
  });
});

describe("openCsv", () => {
  it("numbers rows as the spreadsheet does: blank lines count, line breaks inside a cell do not", async () => {
    const { csv, rows } = await read('a,b\r\n1,"x\r\ny"\r\n\r\n2,z\r\n,\r\n3,w\r\n', 3);
    expect(csv.header).toEqual(["a", "b"]);
    expect(rows).toEqual([
      { row: 2, cells: ["1", "x\r\ny"] },
      { row: 4, cells: ["2", "z"] },
      { row: 6, cells: ["3", "w"] },
    ]);
  });

  it("reads the Excel (BOM, CRLF) export", async () => {
    const { csv, rows } = await read(fixtureBytes("excel-bom-crlf.csv"));
    expect(csv.encoding).toBe("utf-8 with BOM");
    expect(csv.delimiter).toBe(",");
    expect(csv.header[0]).toBe("reference");
    expect(rows).toHaveLength(12);
    expect(rows[0]!.cells[2]).toMatch(/^\$[\d,]+$/);
  });

  it("reads the European Excel export with semicolons", async () => {
    const { csv, rows } = await read(fixtureBytes("excel-semicolon.csv"));
    expect(csv.delimiter).toBe(";");
    expect(rows).toHaveLength(23);
    expect(rows.at(-1)!.row).toBe(24);
  });

  it("reads Excel's Unicode text (UTF-16 LE, tabs)", async () => {
    const { csv, rows } = await read(fixtureBytes("excel-unicode-utf16le.txt"), 5);
    expect(csv.encoding).toBe("utf-16le");
    expect(csv.delimiter).toBe("\t");
    expect(rows).toHaveLength(6);
    expect(rows[0]!.cells).toContain("Atelier Lumière");
  });

  it("keeps row numbers right after cells with line breaks", async () => {
    const { rows } = await read(fixtureBytes("quoted-newlines.csv"));
    expect(rows.map((r) => r.row)).toEqual([2, 3, 4, 5, 6]);
    expect(rows[0]!.cells.at(-1)).toBe('Fragile.\nCrate with foam;\n"handle" with care');
  });

  it("reads Google Sheets and Numbers exports", async () => {
    expect((await read(fixtureBytes("google-sheets.csv"))).rows).toHaveLength(15);
    const numbers = await read(fixtureBytes("numbers.csv"));
    expect(numbers.csv.header[8]).toBe("Fulfillment Name");
    expect(numbers.rows).toHaveLength(8);
  });

  it("refuses an empty file and an unclosed quote, naming the file and line", async () => {
    await expect(read("")).rejects.toThrow(/f.csv is empty/);
    const all = async () => collectRows((await openCsv(chunked('a,b\n1,"never closed\n2,3\n'), "q.csv")).rows);
    await expect(all()).rejects.toSatisfy((e: unknown) => e instanceof UsageError && /q.csv, line 3: a quoted field is never closed/.test(e.message));
  });

  it("reads the header below blank lines of spaces or tabs, with the spreadsheet's row numbers", async () => {
    for (const text of ["  \na;b\n1;2\n", "\t\r\n \r\na;b\r\n1;2\r\n"]) {
      const { csv, rows } = await read(text);
      expect([csv.header, csv.delimiter]).toEqual([["a", "b"], ";"]);
      expect(rows).toEqual([{ row: text.startsWith(" ") ? 3 : 4, cells: ["1", "2"] }]);
    }
  });

  it("reads a file that is only a header (its last record ends with the file), with no rows", async () => {
    for (const text of ["a,b\n", "a,b", "a;b\r\n"]) {
      const { csv, rows } = await read(text);
      expect(csv.header).toEqual(["a", "b"]);
      expect(rows).toEqual([]);
    }
  });

  it("gives the same rows and the same errors however the file's bytes are cut", async () => {
    const bytes = fixtureBytes("quoted-newlines.csv");
    const one = await read(bytes, 40);
    for (const size of [1, 7, 4096]) expect((await read(bytes, size)).rows).toEqual(one.rows);
    for (const size of [1, 5, 4096]) {
      const all = async () => collectRows((await openCsv(chunked('a,b\n1,2\n1,"never closed\n2,3\n', size), "q.csv")).rows);
      await expect(all()).rejects.toSatisfy((e: unknown) => e instanceof UsageError && /q.csv, line 4: a quoted field is never closed/.test(e.message));
    }
  });

  it("refuses bytes that are not UTF-8 met after the header, naming the line", async () => {
    const bytes = Buffer.concat([Buffer.from("a,b\n1,2\n3,Caf"), Buffer.from([0xe9]), Buffer.from("\n")]);
    const all = async () => collectRows((await openCsv(chunked(bytes, 5), "l.csv")).rows);
    await expect(all()).rejects.toSatisfy((e: unknown) => e instanceof UsageError && /l.csv is not UTF-8 text: line 3/.test(e.message));
  });

  it("stops reading when the reader leaves the loop early, and closes the file", async () => {
    let closed = false;
    async function* file() {
      try {
        for (let i = 0; i < 100_000; i++) yield Buffer.from(i === 0 ? "a,b\n" : `${i},x\n`);
      } finally {
        closed = true;
      }
    }
    const csv = await openCsv(file(), "f.csv");
    for await (const r of csv.rows) {
      expect(r).toEqual({ row: 2, cells: ["1", "x"] });
      break;
    }
    expect(await collectRows(csv.rows)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
  });
});

describe("openCsv: the line end a file uses", () => {
  it.each([
    ["a;b\r\n1;2\r\n", "\r\n"],
    ["a;b\n1;2\n", "\n"],
    ['"a\nb";c\n1;2\n', "\n"],
    ["a,b", "\r\n"],
  ])("%j ends its lines with %j", async (text, lineEnd) => {
    const csv = await openCsv(chunked(text), "x.csv");
    expect(csv.lineEnd).toBe(lineEnd);
    await csv.close();
  });
});

describe("openCsv: close()", () => {
  // Windows cannot remove a folder holding an open file, nor replace a file another program holds: a reader that
  // stopped early (a refused row, Ctrl-C, a header read alone) must have closed its file when close() resolves.
  it.each(["after the header alone", "after a loop over the rows stopped at the first"])("resolves once the file is closed: %s", async (when) => {
    const path = join(tempDir("shipctl-csv-close-"), "orders.csv");
    writeFileSync(path, `title,value\n${Array.from({ length: 200 }, (_, i) => `Work ${i},${i}`).join("\n")}\n`);
    const stream = createReadStream(path, { highWaterMark: 64 });
    let fileClosed = false;
    stream.once("close", () => (fileClosed = true));
    const csv = await openCsv(stream, "orders.csv");
    if (when !== "after the header alone") for await (const _row of csv.rows) break;
    await csv.close();
    expect(fileClosed).toBe(true);
  });
});
