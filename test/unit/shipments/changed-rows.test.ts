// Which rows of a rerun are edits of rows created earlier (shipments/changed-rows.ts): by key when the record knows
// the row, by place when it does not and a created row's content is gone, and "unsure" when neither is certain.
import { describe, expect, it } from "vitest";
import type { Shipment } from "../../../src/contract/index.js";
import type { InputLedger } from "../../../src/ledger/input-ledger.js";
import type { RowState } from "../../../src/ledger/entry.js";
import { linesFor, statesOf } from "../../../src/ledger/record-lines.js";
import { ChangedRows, changesText, printOf, unsureText, type ChangedVerdict } from "../../../src/shipments/changed-rows.js";

const shipment = (title: string, value = 850): Shipment => ({ title, value, length: 20, height: 10, depth: 2, service: 1, fulfillment_address_id: 12, destination_address_id: 15 });

/** A record of rows created at rows 2, 3, 4 (ids 117-119), keyed by their titles. */
function record(titles = ["A", "B", "C"]): Map<string, RowState> {
  return new Map(titles.map((t, i) => [t, { state: "created", id: 117 + i, ...printOf(shipment(t), i + 2) } as RowState]));
}

const ledgerOf = (rows: Map<string, RowState>) => ({ hasRows: rows.size > 0, row: (k: string) => rows.get(k), entries: () => rows.entries() }) as unknown as InputLedger;

/** Sees the file's rows (key = title, value as given) from row 2 on, and settles. */
function rerun(rows: Map<string, RowState>, file: Array<[string, number] | [string, number, string]>, header = ["title"]): ChangedRows {
  const changed = new ChangedRows(ledgerOf(rows));
  file.forEach(([key, value, reference], i) => changed.see(i + 2, key, shipment(key.replace(/'$/, ""), value), reference));
  changed.settle(header);
  return changed;
}

describe("ChangedRows", () => {
  it("a results file's line marked changed is the shipment its id names, when this input created it; else unsure", () => {
    const results = ["title", "shipment_id", "status", "error", "shipctl_row", "shipctl_key", "shipctl_original"];
    const marked = new Map([
      ["C'", { status: "changed" as const, id: "119", error: "row 4 was created as shipment 119; ..." }],
      ["X", { status: "changed" as const, id: "500", error: "row 5 was created as shipment 500; ..." }],
      ["U", { status: "unsure" as const, id: "", error: "not created: rows created earlier are gone" }],
    ]);
    const c = new ChangedRows(ledgerOf(record()), marked);
    [["A", 850], ["B", 850], ["C'", 875], ["X", 900], ["U", 950]].forEach(([key, value], i) => c.see(i + 2, key as string, shipment(key as string, value as number), undefined));
    c.settle(results);
    expect(c.of("C'")).toEqual({ kind: "changed", id: 119, changes: [{ field: "title", column: "title", from: "C", to: "C'" }, { field: "value", column: "value", from: 850, to: 875 }] });
    expect(c.of("X")).toEqual({ kind: "unsure", said: "" });
    expect(unsureText(c.of("X") as Extract<ChangedVerdict, { kind: "unsure" }>)).toContain("--force-new");
    expect(c.of("U")).toEqual({ kind: "unsure", said: "not created: rows created earlier are gone" });
  });

  it("a results file's line naming a shipment this input created, whatever its status: done when it holds what was created, else changed", () => {
    const results = ["title", "shipment_id", "status", "error", "shipctl_row", "shipctl_key", "shipctl_original"];
    const marked = new Map([
      ["C'", { status: "changed" as const, id: "119", error: "row 4 was created as shipment 119; ..." }],
      ["B'", { status: "skipped" as const, id: "118", error: "" }],
      ["N", { status: "skipped" as const, id: "500", error: "" }],
      ["A'", { status: "", id: "117", error: "" }],
    ]);
    const c = new ChangedRows(ledgerOf(record()), marked);
    [["A'", 875, "A"], ["B'", 850, "B"], ["C'", 850, "C"], ["N", 850, "N"]].forEach(([key, value, title], i) => c.see(i + 2, key as string, shipment(title as string, value as number), undefined));
    c.settle(results);
    expect(c.of("C'")).toEqual({ kind: "done", id: 119 });
    expect(c.of("B'")).toEqual({ kind: "done", id: 118 });
    expect(c.of("N")).toBeUndefined();
    expect(c.of("A'")).toEqual({ kind: "changed", id: 117, changes: [{ field: "value", column: "value", from: 850, to: 875 }] });
  });

  it("a known row edited since: changed, with each field's change", () => {
    const c = rerun(record(), [["A", 850], ["B", 850], ["C", 875]]);
    expect(c.of("C")).toEqual({ kind: "changed", id: 119, changes: [{ field: "value", column: "value", from: 850, to: 875 }] });
    expect(c.of("A")).toBeUndefined();
  });

  it("an unknown row where a created row's content is gone, nothing moved: that row, changed", () => {
    const c = rerun(record(), [["A", 850], ["B", 850], ["C'", 875]]);
    expect(c.of("C'")).toMatchObject({ kind: "changed", id: 119 });
  });

  it("rows added with nothing gone are new; added while a row is gone and rows moved, unsure", () => {
    expect(rerun(record(), [["A", 850], ["B", 850], ["C", 850], ["D", 900]]).of("D")).toBeUndefined();
    const inserted = rerun(record(), [["X", 500], ["A", 850], ["B", 850], ["C'", 875]]);
    expect(inserted.of("X")).toMatchObject({ kind: "unsure" });
    expect(inserted.of("C'")).toMatchObject({ kind: "unsure" });
    expect(rerun(record(), [["C'", 875], ["A", 850], ["B", 850]]).of("C'")).toMatchObject({ kind: "unsure", gone: "row 4 (shipment 119)" });
  });

  it("a created row replaced at its place (--force-new, an update) is not gone", () => {
    const rows = record();
    rows.set("C'", { state: "created", id: 120, ...printOf(shipment("C", 875), 4) } as RowState);
    expect(rerun(rows, [["A", 850], ["B", 850], ["C'", 875], ["D", 900]]).of("D")).toBeUndefined();
    const updated = record();
    updated.set("C'", { state: "created", id: 119, ...printOf(shipment("C", 875), 4) } as RowState);
    expect(rerun(updated, [["A", 850], ["B", 850], ["C'", 875], ["D", 900]]).of("D")).toBeUndefined();
  });

  it("a record without prints cannot place a gone row: new rows are unsure; a row with a reference is new", () => {
    const old = new Map<string, RowState>([["A", { state: "created", id: 1 }], ["B", { state: "created", id: 2 }]]);
    expect(rerun(old, [["A", 850], ["B'", 900]]).of("B'")).toMatchObject({ kind: "unsure", gone: "shipment 2" });
    expect(rerun(record(), [["A", 850], ["B", 850], ["ref:NEW", 900, "NEW"]]).of("ref:NEW")).toBeUndefined();
  });

  it("a reference a spreadsheet saved without its leading zeros (007 as 7), the created row gone: unsure, naming it", () => {
    const rows = new Map<string, RowState>([["ref:007", { state: "created", id: 117, ...printOf(shipment("A"), 2) } as RowState]]);
    expect(rerun(rows, [["ref:7", 850, "7"]]).of("ref:7")).toEqual({ kind: "unsure", zeros: { reference: "007", now: "7", row: 2, id: 117 } });
    expect(unsureText(rerun(rows, [["ref:7", 850, "7"]]).of("ref:7") as Extract<ChangedVerdict, { kind: "unsure" }>)).toContain("write its reference as 007 again");
    // 007 still in the file: 7 is another row, new.
    expect(rerun(rows, [["ref:007", 850, "007"], ["ref:7", 850, "7"]]).of("ref:7")).toBeUndefined();
    expect(rerun(rows, [["ref:70", 850, "70"]]).of("ref:70")).toBeUndefined();
  });

  it("a results or errors file places no row by its place", () => {
    expect(rerun(record(), [["A", 850], ["B", 850], ["C'", 875]], ["title", "shipctl_key"]).of("C'")).toBeUndefined();
  });

  it("says the changes in a line", () => {
    expect(changesText([{ field: "value", column: "value", from: 850, to: 875 }, { field: "destination_address", column: "destination address", from: null, to: null }])).toBe("value 850 → 875, destination address changed");
  });
});

describe("a record's shared lines keep each row's print", () => {
  it("writes file rows and sides as lists, and reads them back per row", () => {
    const states: Array<[string, RowState]> = [
      ["k1", { state: "created", id: 101, ...printOf(shipment("A"), 2) } as RowState],
      ["k2", { state: "created", id: 102, ...printOf(shipment("B"), 3) } as RowState],
    ];
    const lines = linesFor(states);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ rows: ["k1", "k2"], ids: [101, 102], file_rows: [2, 3] });
    expect(statesOf(JSON.parse(lines[0]!))).toEqual(states);
    const one = linesFor([states[0]!]);
    expect(statesOf(JSON.parse(one[0]!))).toEqual([states[0]]);
  });
});
