import { describe, expect, it } from "vitest";
import { mergeResultLines, type ResultLine } from "../../../src/csv/results-merge.js";

function line(row: number, key: string, status: string, id = "", title = `T${row}`): ResultLine {
  return { row, key, cells: new Map([["title", title]]), id, status, error: status === "failed" ? "bad" : "" };
}
const rows = (lines: ResultLine[]) => lines.map((l) => [l.row, l.key, l.status, l.id, l.cells.get("title")]);

describe("mergeResultLines: one record per row of the original", () => {
  const earlier = [line(2, "k2", "created", "11"), line(3, "row:3", "failed"), line(4, "k4", "failed"), line(5, "k5", "created", "12")];

  it("a run of the errors file updates the rows it touches and keeps the others, in original row order", () => {
    // Row 3 was invalid (no key but its row); row 4 was refused and fixed: its content changed, its key did not.
    const fresh = [line(4, "k4", "created", "14", "T4 fixed"), line(3, "row:3", "created", "13", "T3 fixed")];
    expect(rows(mergeResultLines(earlier, fresh, true))).toEqual([
      [2, "k2", "created", "11", "T2"],
      [3, "row:3", "created", "13", "T3 fixed"],
      [4, "k4", "created", "14", "T4 fixed"],
      [5, "k5", "created", "12", "T5"],
    ]);
  });

  it("a line is matched by its key first: the original re-saved with a row inserted above keeps each row's record", () => {
    const fresh = [line(2, "new", "created", "20"), line(3, "k2", "skipped", "11"), line(4, "row:3", "failed"), line(5, "k4", "failed"), line(6, "k5", "skipped", "12")];
    const merged = mergeResultLines(earlier, fresh, true);
    expect(merged.map((l) => l.key)).toEqual(["new", "k2", "row:3", "k4", "k5"]);
    expect(merged.map((l) => l.row)).toEqual([2, 3, 4, 5, 6]);
  });

  it("a created row keeps its record when a later run says less (its original cell still invalid, a run stopped first)", () => {
    const fixed = mergeResultLines(earlier, [line(3, "row:3", "created", "13", "T3 fixed")], true);
    const rerun = [line(2, "k2", "skipped", "11"), line(3, "row:3", "failed", "", "T3 broken"), line(4, "k4", "pending"), line(5, "k5", "skipped", "12")];
    expect(rows(mergeResultLines(fixed, rerun, true))).toEqual([
      [2, "k2", "created", "11", "T2"],
      [3, "row:3", "created", "13", "T3 fixed"],
      [4, "k4", "pending", "", "T4"],
      [5, "k5", "created", "12", "T5"],
    ]);
  });

  it("a row created anew (another id) replaces its record; without keepCreated (updates) the latest outcome wins", () => {
    expect(rows(mergeResultLines(earlier, [line(2, "k2x", "created", "30", "T2 edited")], true))[0]).toEqual([2, "k2x", "created", "30", "T2 edited"]);
    expect(rows(mergeResultLines([line(2, "k2", "updated", "11")], [line(2, "k2", "failed", "11")], false))).toEqual([[2, "k2", "failed", "11", "T2"]]);
  });

  it("a row not created as unsure keeps the line of the shipment created at its row number (from the fixed errors file)", () => {
    // Row 3 was created from the errors file under its row key; the original, fixed by hand too, is now unsure there.
    const created = [line(2, "k2", "created", "11"), line(3, "row:3", "created", "13", "T3 fixed")];
    const merged = mergeResultLines(created, [line(2, "k2", "skipped", "11"), line(3, "h3", "unsure", "", "T3 fixed")], true);
    expect(rows(merged)).toEqual([
      [2, "k2", "created", "11", "T2"],
      [3, "h3", "unsure", "", "T3 fixed"],
      [3, "row:3", "created", "13", "T3 fixed"],
    ]);
    // The next run of the same: one line each still.
    expect(rows(mergeResultLines(merged, [line(2, "k2", "skipped", "11"), line(3, "h3", "unsure", "", "T3 fixed")], true))).toEqual(rows(merged));
  });

  it("a row's line is not taken by row number when its key belongs to another row of the run", () => {
    // Row 2's old line (k2) is matched by key at row 3; the new row 2 (key n) is a line of its own.
    const merged = mergeResultLines([line(2, "k2", "failed")], [line(2, "n", "failed"), line(3, "k2", "failed")], true);
    expect(merged.map((l) => [l.row, l.key])).toEqual([
      [2, "n"],
      [3, "k2"],
    ]);
  });
});
