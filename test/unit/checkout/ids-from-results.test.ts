// `checkout --from`: which ids a results file (or stdin) gives, read through the same CSV reader as every batch.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { openCsv } from "../../../src/csv/csv-reader.js";
import { UsageError } from "../../../src/errors.js";
import { idsFromResults, idsFromText } from "../../../src/checkout/ids-from-results.js";

const read = async (text: string | Buffer, file = "r.csv") => idsFromResults(await openCsv(Readable.from([Buffer.from(text)]), file));
const refusal = async (text: string) => {
  const e = await read(text).catch((err: unknown) => err);
  expect(e).toBeInstanceOf(UsageError);
  return (e as UsageError).message;
};

describe("idsFromResults", () => {
  it("takes the shipment_id of created and skipped rows, in file order; leaves out failed, unknown and not sent by row", async () => {
    const found = await read(
      [
        "reference,title,shipment_id,status,error",
        "A,One,12,created,",
        "B,Two,,failed,value: must be between 50 and 10000",
        "C,Three,9,skipped,",
        "D,Four,,unknown,the answer was lost",
        "E,Five,,pending,",
        "F,Six,,failed,title: required",
      ].join("\n"),
    );
    expect(found.ids).toEqual([12, 9]);
    expect([...found.leftOut]).toEqual([
      ["failed", [3, 7]],
      ["unknown (the answer was lost: it may not exist)", [5]],
      ["not sent", [6]],
    ]);
  });

  it("leaves out a row edited since it was created (its shipment holds the row as it was) and a row not created", async () => {
    const found = await read(["shipment_id,status", "12,created", "13,changed", ",unsure", "14,updated"].join("\n"));
    expect(found.ids).toEqual([12, 14]);
    expect([...found.leftOut]).toEqual([
      ["edited since it was created (rerun the create with --update-changed, or --force-new, first)", [3]],
      ["not created (it could not be matched with certainty)", [4]],
    ]);
  });

  it("finds columns by name wherever they are, ignoring others (row, key, source columns added before ours)", async () => {
    const found = await read("row,key,Shipment ID,title,STATUS,source\n2,k1,31,A,created,orders.csv\n3,k2,,B,failed,orders.csv\n");
    expect(found.ids).toEqual([31]);
  });

  it("reads a spreadsheet re-save: BOM, ';' delimiter, CRLF, quoted cells", async () => {
    const found = await read('\ufeffreference;title;shipment_id;status;error\r\nA;"Blue; red";40;created;\r\nB;x;41;updated;\r\n');
    expect(found.ids).toEqual([40, 41]);
  });

  it("also reads UTF-16 (Excel's Unicode text)", async () => {
    const text = "shipment_id\tstatus\r\n7\tcreated\r\n";
    const found = await read(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    expect(found.ids).toEqual([7]);
  });

  it("an id on two rows is taken once, and said", async () => {
    const found = await read("shipment_id,status\n5,created\n6,created\n5,skipped\n");
    expect(found.ids).toEqual([5, 6]);
    expect([...found.repeated]).toEqual([[5, [2, 4]]]);
  });

  it("without a status column takes every row's id (a list of shipments), leaving out rows without one", async () => {
    const found = await read("shipment_id,title\n3,A\n,B\n4,C\n");
    expect(found.ids).toEqual([3, 4]);
    expect([...found.leftOut]).toEqual([["without a shipment_id", [3]]]);
  });

  it("a shipment status name (Draft, Confirmed) counts as existing", async () => {
    expect((await read("shipment_id,status\n3,Draft\n4,Confirmed\n")).ids).toEqual([3, 4]);
  });

  it("refuses a file without a shipment_id column, naming the file and its columns", async () => {
    expect(await refusal("reference,title,id\nA,B,3\n")).toBe('r.csv has no shipment_id column (its columns: "reference", "title", "id")');
  });

  it("refuses an id that is not a number, naming file, row and column", async () => {
    expect(await refusal("title,shipment_id,status\nA,12,created\nB,12a,created\n")).toBe(
      'r.csv, row 3, column shipment_id (B): "12a" is not a shipment id (a whole number from 1)',
    );
  });

  it("refuses a created row whose id is empty", async () => {
    expect(await refusal("shipment_id,status\n,created\n")).toBe("r.csv, row 2, column shipment_id (A): is empty");
  });

  it("refuses a status it does not know rather than guess", async () => {
    expect(await refusal("shipment_id,status\n4,maybe\n")).toBe('r.csv, row 2, column status (B): status "maybe" is not one shipctl writes');
  });

  it("refuses a status that is the name of a property every object has (it is no status of ours either)", async () => {
    for (const status of ["constructor", "toString", "__proto__"]) {
      expect(await refusal(`shipment_id,status\n4,${status}\n`)).toBe(
        `r.csv, row 2, column status (B): status "${status}" is not one shipctl writes`,
      );
    }
  });
});

describe("idsFromText", () => {
  it("reads ids separated by spaces, commas and line breaks, in order, each once", () => {
    expect(idsFromText("12 13,14\r\n15\n\n 12 ", "stdin")).toEqual({ ids: [12, 13, 14, 15], repeated: [12] });
  });

  it("refuses a word that is not an id, naming its line", () => {
    expect(() => idsFromText("12\n13 x4\n", "stdin")).toThrow('stdin, line 2: "x4" is not a shipment id (a whole number from 1)');
    expect(() => idsFromText("0", "stdin")).toThrow('"0" is not a shipment id');
  });
});
