// A run's --json document is written a piece at a time; what the pieces add up to must be exactly what
// JSON.stringify(document, null, 2) writes, since scripts and people read that layout.
import { describe, expect, it } from "vitest";
import { Outcomes } from "../../../src/batch/outcomes.js";
import { countsOf, summaryLine, writeResultsJson, type ResultWords } from "../../../src/batch/results.js";

const WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "created" };

function write(outcomes: Outcomes, extra: Parameters<typeof writeResultsJson>[3] = {}): { text: string; pieces: number } {
  const pieces: string[] = [];
  writeResultsJson((t) => pieces.push(t), outcomes, WORDS, extra);
  return { text: pieces.join(""), pieces: pieces.length };
}

describe("writeResultsJson", () => {
  it("writes the layout of JSON.stringify(document, null, 2), lists in row order, each row in the one list of its status", () => {
    const outcomes = new Outcomes();
    // Set out of order: the document lists rows in row order.
    outcomes.set(5, { status: "failed", label: 'Line\nbreak "quoted"', error: "value: must be a number", problems: [{ column: "value", reason: "must be a number" }] });
    outcomes.set(2, { status: "created", label: "Étude 東 😀", reference: "R-1", id: 41 });
    outcomes.set(4, { status: "skipped", label: "Again", id: 40 });
    outcomes.set(3, { status: "unknown", label: "Lost", error: "answer lost (reset)" });
    outcomes.set(6, { status: "pending", label: "Not sent" });
    outcomes.set(7, { status: "matched", label: "Twin", id: 4711, error: "matches shipment 4711, created 3 h ago, not by this machine" });
    const { text } = write(outcomes, {
      notes: { changes: [], mappings: [{ kind: "country", from: "DE", to: 5, name: "Germany", rows: 2 } as never] },
      ledger: "/tmp/j.jsonl",
      results: { results: "out.csv", errors: "out.errors.csv" },
    });
    const doc = JSON.parse(text);
    expect(text).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(Object.keys(doc)).toEqual(["created", "failed", "unknown", "not_sent", "skipped", "matched", "updated", "changed", "unsure", "counts", "changes", "mappings", "ledger", "results_file", "errors_file"]);
    expect(doc.created).toEqual([{ row: 2, reference: "R-1", title: "Étude 東 😀", shipment_id: 41 }]);
    expect(doc.failed).toEqual([
      { row: 5, reference: null, title: 'Line\nbreak "quoted"', status: "failed", error: "value: must be a number", problems: [{ column: "value", reason: "must be a number" }] },
    ]);
    expect(doc.unknown).toEqual([{ row: 3, reference: null, title: "Lost", status: "unknown", error: "answer lost (reset)" }]);
    expect(doc.not_sent).toEqual([{ row: 6, reference: null, title: "Not sent", status: "pending", error: null }]);
    expect(doc.skipped).toEqual([{ row: 4, reference: null, title: "Again", shipment_id: 40 }]);
    expect(doc.matched).toEqual([{ row: 7, reference: null, title: "Twin", shipment_id: 4711, status: "matched", error: "matches shipment 4711, created 3 h ago, not by this machine" }]);
    expect(doc.counts).toEqual({ rows: 6, created: 1, failed: 1, skipped: 1, matched: 1, updated: 0, changed: 0, unsure: 0, unknown: 1, not_sent: 1 });
  });

  it("a CSV create lists the rows edited since they were created: updated, changed (with each field's change) and unsure", () => {
    const changes = [{ field: "value", column: "value", from: 850, to: 875 }];
    const outcomes = new Outcomes();
    outcomes.set(2, { status: "updated", label: "Edited", id: 118, changes });
    outcomes.set(3, { status: "changed", label: "Left", id: 119, changes, error: "row 3 was created as shipment 119; since then value 850 → 875" });
    outcomes.set(4, { status: "unsure", label: "Unsure", error: "not created" });
    const doc = JSON.parse(write(outcomes, {}).text);
    expect(doc.updated).toEqual([{ row: 2, reference: null, title: "Edited", shipment_id: 118, changes }]);
    expect(doc.changed).toEqual([{ row: 3, reference: null, title: "Left", shipment_id: 119, changes, error: "row 3 was created as shipment 119; since then value 850 → 875" }]);
    expect(doc.unsure).toEqual([{ row: 4, reference: null, title: "Unsure", status: "unsure", error: "not created" }]);
    expect(doc.counts).toMatchObject({ rows: 3, created: 0, updated: 1, changed: 1, unsure: 1 });
  });

  it("empty lists are [] and a run with no rows is still one whole document", () => {
    const { text } = write(new Outcomes(), { position: "item" });
    const empty = { created: [], failed: [], unknown: [], not_sent: [], skipped: [], matched: [], counts: { items: 0, created: 0, failed: 0, skipped: 0, matched: 0, unknown: 0, not_sent: 0 } };
    expect(text).toBe(`${JSON.stringify(empty, null, 2)}\n`);
  });

  it("a big run comes out in pieces, never as one string", () => {
    const outcomes = new Outcomes();
    for (let row = 2; row < 5_002; row++) outcomes.set(row, { status: "created", label: `Work ${row}`, id: row * 10 });
    const { text, pieces } = write(outcomes);
    expect(pieces).toBeGreaterThan(5_000);
    const doc = JSON.parse(text);
    expect(text).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(doc.created).toHaveLength(5_000);
  });
});

describe("summaryLine", () => {
  it("counts one row as a row, as it counts one item (usage.md: `(of 40 rows)`)", () => {
    const outcomes = new Outcomes();
    outcomes.set(2, { status: "created", label: "Blue Study", id: 74 });
    expect(summaryLine(countsOf(outcomes, WORDS), WORDS, "row")).toBe("1 created (of 1 row).");
    expect(summaryLine(countsOf(outcomes, WORDS), WORDS, "item")).toBe("1 created (of 1 item).");
    outcomes.set(3, { status: "created", label: "Red Square", id: 75 });
    expect(summaryLine(countsOf(outcomes, WORDS), WORDS, "row")).toBe("2 created (of 2 rows).");
  });
});
