import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { targetsFromManifest, targetsFromRoot } from "../../../src/reports/batch-sources.js";
import { isIgnoredName } from "../../../src/reports/side-names.js";
import { parseReportKey, reportKey } from "../../../src/reports/report-ledger.js";
import { tempDir } from "../../helpers/cli.js";

describe("targetsFromRoot", () => {
  it("takes folders named by id (with an optional label), in natural order, skipping hidden ones", async () => {
    const root = tempDir();
    for (const name of ["10", "9-smith", "100 bronze", ".cache", "misc", "7_x", "__MACOSX"]) mkdirSync(join(root, name));
    writeFileSync(join(root, "notes.txt"), "x");
    const r = await targetsFromRoot(root);
    expect(r.targets.map((t) => [t.shipmentId, t.label])).toEqual([[7, "7_x"], [9, "9-smith"], [10, "10"], [100, "100 bronze"]]);
    expect(r.problems).toEqual([expect.objectContaining({ file: "misc/", problem: "the folder name does not start with a shipment id" })]);
  });

  it("ignores the clutter macOS and Windows leave in folders", () => {
    for (const name of [".DS_Store", "._IMG_1.jpg", "Thumbs.db", "desktop.ini", "Icon\r", "__MACOSX"]) expect(isIgnoredName(name)).toBe(true);
    expect(isIgnoredName("Icon.jpg")).toBe(false);
  });

  it("refuses two folders for one shipment and an empty root", async () => {
    const root = tempDir();
    mkdirSync(join(root, "12"));
    mkdirSync(join(root, "12-again"));
    expect((await targetsFromRoot(root)).problems[0]!.problem).toBe("two folders for shipment 12");
    expect((await targetsFromRoot(tempDir())).problems[0]!.problem).toBe("no shipment folders inside");
    expect((await targetsFromRoot(join(root, "nope"))).problems[0]!.problem).toBe("no such folder");
  });
});

describe("targetsFromManifest", () => {
  it("reads , ; or tab, a BOM, any header spelling, folders relative to the manifest", async () => {
    const dir = tempDir();
    for (const [name, text] of [
      ["a.csv", "shipment_id,folder\n1,one\n2,/abs/two\n"],
      ["b.csv", "\uFEFFShipment ID;Folder\r\n1;one\r\n"],
      ["c.csv", "folder\tshipment-id\none\t1\n"],
      // Excel: empty columns to the right, and rows of empty cells, which list nothing.
      ["d.csv", "shipment_id,folder,,\r\n,,,\r\n1,one,,\r\n,,,"],
    ] as const) {
      writeFileSync(join(dir, name), text);
      const r = await targetsFromManifest(join(dir, name));
      expect(r.problems).toEqual([]);
      expect(r.targets[0]).toEqual({ shipmentId: 1, folder: join(dir, "one"), label: "one" });
    }
    expect((await targetsFromManifest(join(dir, "a.csv"))).targets[1]!.folder).toBe("/abs/two");
  });

  it("names the header it found when a column is missing, and refuses UTF-16", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "m.csv"), "id,path\n1,x\n");
    const r = await targetsFromManifest(join(dir, "m.csv"));
    expect(r.problems[0]!.problem).toContain("found: id, path");
    writeFileSync(join(dir, "u.csv"), Buffer.from("\uFEFFshipment_id,folder\n", "utf16le"));
    expect((await targetsFromManifest(join(dir, "u.csv"))).problems[0]!.fix).toContain("UTF-8");
  });

  it("skips rows whose cells are all empty (a spreadsheet's \",\" row), as the other CSV readers do", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "m.csv"), "shipment_id,folder\r\n1,one\r\n,\r\n , \r\n2,two\r\n");
    const r = await targetsFromManifest(join(dir, "m.csv"));
    expect(r.problems).toEqual([]);
    expect(r.targets.map((t) => t.shipmentId)).toEqual([1, 2]);
  });

  it("numbers rows as the spreadsheet does, past a quoted cell with a line break", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "m.csv"), 'shipment_id,folder\n1,"two\nlines"\nx,y\n');
    const r = await targetsFromManifest(join(dir, "m.csv"));
    expect(r.problems).toEqual([expect.objectContaining({ file: `${join(dir, "m.csv")} row 4` })]);
  });
});

describe("report keys", () => {
  it("keys a row by shipment and set, and reads such keys back", () => {
    expect(reportKey(1234, 2)).toBe("1234/2");
    expect(parseReportKey("1234/2")).toEqual({ shipmentId: 1234, set: 2 });
    expect(parseReportKey("1234/3")).toBeUndefined();
    expect(parseReportKey("ref:A")).toBeUndefined();
  });
});
