// writeResultsFiles: every input column is kept, blank or repeated headers too, on a first run and in a merge.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSource } from "../../../src/csv/csv-source.js";
import { writeResultsFiles } from "../../../src/csv/results-csv.js";
import { Outcomes } from "../../../src/batch/outcomes.js";
import { tempDir } from "../../helpers/cli.js";
import { Readable } from "node:stream";

const options = { idColumn: "shipment_id", keepCreated: true };
/** The key of an invalid row of `in.csv` (the file of the first test), read back from the results file. */
let rowKey = (row: number) => `row:${row}`;

describe("writeResultsFiles", () => {
  it("keeps a blank and a repeated header's cells, and merges a later run of the same original by row", async () => {
    const dir = tempDir("shipctl-results-");
    const input = join(dir, "in.csv");
    writeFileSync(input, "title,,notes,notes\r\nA,x,n1,n2\r\nB,y,n3,n4\r\n");
    const source = await openSource(input, dir, Readable.from([]));
    const first = new Outcomes();
    first.set(2, { status: "created", label: "A", id: 7 });
    first.set(3, { status: "failed", label: "B", error: "bad" });
    const files = await writeResultsFiles(source, first, "r.csv", dir, options);
    expect(files.failing).toBe(1);
    const suffix = /,row:2(@[0-9a-f]{8}),/.exec(readFileSync(join(dir, "r.csv"), "utf8"))![1];
    rowKey = (row) => `row:${row}${suffix}`;
    const lines = () => readFileSync(join(dir, "r.csv"), "utf8").split("\r\n");
    expect(lines().slice(0, 3)).toEqual([
      `\ufefftitle,,notes,notes,shipment_id,status,error,note,shipctl_row,shipctl_key,shipctl_original`,
      `A,x,n1,n2,7,created,,,2,${rowKey(2)},${input}`,
      `B,y,n3,n4,,failed,bad,,3,${rowKey(3)},${input}`,
    ]);
    expect(readFileSync(join(dir, "r.errors.csv"), "utf8").split("\r\n")[1]).toBe(`B,y,n3,n4,bad,3,${rowKey(3)},${input}`);

    // The original again: row 2's cell now says less of it (invalid), row 3 is created.
    const second = new Outcomes();
    second.set(2, { status: "failed", label: "A", error: "still bad" });
    second.set(3, { status: "created", label: "B", id: 8 });
    expect((await writeResultsFiles(source, second, "r.csv", dir, options)).failing).toBe(0);
    expect(lines().slice(1, 3)).toEqual([`A,x,n1,n2,7,created,,,2,${rowKey(2)},${input}`, `B,y,n3,n4,8,created,,,3,${rowKey(3)},${input}`]);
  });

  it("keeps one blank column per blank header when the results file, re-saved with trailing separators, is run again", async () => {
    const dir = tempDir("shipctl-results-");
    const input = join(dir, "in.csv");
    writeFileSync(input, "title,value\r\nA,1\r\n");
    const created = new Outcomes();
    created.set(2, { status: "created", label: "A", id: 7 });
    await writeResultsFiles(await openSource(input, dir, Readable.from([])), created, "r.csv", dir, options);
    // A spreadsheet saves the results file with two empty columns after shipctl's; it is run again, twice.
    const resaved = join(dir, "r-saved.csv");
    const header = () => readFileSync(join(dir, "r.csv"), "utf8").split("\r\n")[0];
    writeFileSync(resaved, readFileSync(join(dir, "r.csv"), "utf8").split("\r\n").map((l) => (l === "" ? l : `${l},,`)).join("\r\n"));
    for (let run = 0; run < 2; run++) {
      await writeResultsFiles(await openSource(resaved, dir, Readable.from([])), created, "r.csv", dir, options);
      expect(header()).toBe("\ufefftitle,value,,,shipment_id,status,error,note,shipctl_row,shipctl_key,shipctl_original");
    }
  });

  it("names an invalid row by its row and its original: another sheet's row 3, fixed in its own errors file, is not a copy of it", async () => {
    const dir = tempDir("shipctl-results-");
    const keys: string[] = [];
    for (const name of ["march.csv", "april.csv"]) {
      writeFileSync(join(dir, name), "title,value\r\nA,1\r\nB,x\r\n");
      const outcomes = new Outcomes();
      outcomes.set(3, { status: "failed", label: "B", error: "bad" });
      await writeResultsFiles(await openSource(join(dir, name), dir, Readable.from([])), outcomes, `${name}.r.csv`, dir, options);
      keys.push(readFileSync(join(dir, `${name}.r.errors.csv`), "utf8").split("\r\n")[1]!.split(",")[4]!);
    }
    expect(keys[0]).toMatch(/^row:3@[0-9a-f]{8}$/);
    expect(keys[1]).toMatch(/^row:3@[0-9a-f]{8}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
