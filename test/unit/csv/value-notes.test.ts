// What was read differently and which names went through the tables: summed per column and per name, in the order
// first met, with a few examples, and bounded whatever the file.
import { describe, expect, it } from "vitest";
import { Notes } from "../../../src/csv/value-notes.js";
import type { Mapping } from "../../../src/csv/table-cells.js";
import type { Change } from "../../../src/csv/row-types.js";

const us: Mapping = { kind: "country", input: "USA", id: 1, name: "United States" };
const express: Mapping = { kind: "service", input: "Express", id: 2, name: "Express" };
const de: Mapping = { kind: "country", input: "Germany", id: 5, name: "Germany" };
// Same text, another kind: a different mapping.
const expressCountry: Mapping = { kind: "country", input: "Express", id: 9, name: "Nowhere" };

describe("Notes", () => {
  it("counts each mapping per kind and name, in the order first met", () => {
    const notes = new Notes();
    notes.add(2, [], [us, express]);
    notes.add(3, [], [de, us]);
    notes.add(4, [], [express, expressCountry]);
    notes.add(5, [], [us]);
    expect(notes.toJSON().mappings).toEqual([
      { ...us, rows: 3 },
      { ...express, rows: 2 },
      { ...de, rows: 1 },
      { ...expressCountry, rows: 1 },
    ]);
    expect(notes.render("sandbox (default)")).toBe(
      "Values read differently from how they are written:\n" +
        `  4 rows: country names and codes mapped to the service's ids through the sandbox (default) tables: "USA" -> 1 (United States), "Germany" -> 5 (Germany), "Express" -> 9 (Nowhere) (rows 2, 3, 4, …)\n` +
        `  2 rows: service names mapped to the service's ids through the sandbox (default) tables: "Express" -> 2 (Express) (rows 2, 4)\n`,
    );
  });

  it("keeps three examples of each column's changes and counts the rest", () => {
    const notes = new Notes();
    for (let row = 2; row < 12; row++) notes.add(row, [{ column: "value", from: `$${row}.00`, to: String(row) }], []);
    const [value] = notes.toJSON().changes;
    expect(value).toEqual({ column: "value", rows: 10, examples: [2, 3, 4].map((row) => ({ row, from: `$${row}.00`, to: String(row) })) });
    expect(notes.render("x")).toContain('  10 rows: values of value read differently, e.g. "$2.00" -> 2 (rows 2, 3, 4, …)\n');
  });

  it("one line per kind, a row counted once per kind however many of its cells; a change of no kind, by its column", () => {
    const notes = new Notes();
    const phones: Change[] = [
      { column: "fulfillment_phone", from: "(206) 953-6978", to: "+12069536978", kind: "phone" },
      { column: "destination_phone", from: "(602) 555-0110", to: "+16025550110", kind: "phone" },
    ];
    for (const row of [2, 5, 9, 12]) notes.add(row, [...phones, { column: "value", from: "$1,200", to: "1200", kind: "number" }], []);
    notes.add(13, [{ column: "destination_region", from: "Arizona", to: "AZ" }], []);
    notes.add(14, [{ column: "destination_region", from: "Ohio", to: "OH" }], []);
    expect(notes.render("x")).toBe(
      "Values read differently from how they are written:\n" +
        '  4 rows: phone numbers written in international form [fulfillment_phone, destination_phone], e.g. "(206) 953-6978" -> +12069536978 (rows 2, 5, 9, …)\n' +
        '  4 rows: numbers read from how the spreadsheet shows them ($1,200 -> 1200) [value], e.g. "$1,200" -> 1200 (rows 2, 5, 9, …)\n' +
        '  2 rows: values of destination_region read differently, e.g. "Arizona" -> AZ (rows 13, 14)\n',
    );
  });

  it("keeps each row's notes only for a results file, and says where they are", () => {
    const kept = new Notes({ perRow: true });
    kept.add(2, [{ column: "phone", from: "(206) 953-6978", to: "+12069536978", kind: "phone" }], [us]);
    kept.add(3, [], []);
    expect(kept.rowNote(2)).toBe('phone "(206) 953-6978" -> +12069536978; country "USA" -> 1 (United States)');
    expect(kept.rowNote(3)).toBe("");
    expect(kept.render("x", "r.csv")).toMatch(/^Values read differently from how they are written \(each row's notes: the note column of r\.csv\):\n/);
    const notKept = new Notes();
    notKept.add(2, [], [us]);
    expect(notKept.rowNote(2)).toBe("");
  });

  it("keeps at most 500 distinct mappings, still counting those it has", () => {
    const notes = new Notes();
    for (let i = 0; i < 2_000; i++) notes.add(i + 2, [], [{ kind: "country", input: `Land ${i}`, id: i, name: `Land ${i}` }, us]);
    const { mappings } = notes.toJSON();
    expect(mappings).toHaveLength(500);
    expect(mappings[0]).toEqual({ kind: "country", input: "Land 0", id: 0, name: "Land 0", rows: 1 });
    expect(mappings.find((m) => m.input === "USA")).toEqual({ ...us, rows: 2_000 });
  });

  it("keeps each kind of change apart from plain formatting, says what it means, and shows a line break as \\n", () => {
    const notes = new Notes();
    notes.add(2, [{ column: "title", from: "Blue\nStudy", to: "Blue Study", kind: "line-break" }], []);
    notes.add(3, [{ column: "title", from: "'=x", to: "=x", kind: "apostrophe" }, { column: "value", from: "$1,200", to: "1200" }], []);
    expect(notes.toJSON().changes.map((c) => [c.column, c.kind])).toEqual([["title", "line-break"], ["title", "apostrophe"], ["value", undefined]]);
    const text = notes.render("x");
    expect(text).toContain('  1 row: line breaks and tabs folded to a space [title], e.g. "Blue\\nStudy" -> Blue Study (row 2)\n');
    expect(text).toContain("  1 row: leading apostrophe dropped: ");
    expect(text).toContain('  1 row: values of value read differently, e.g. "$1,200" -> 1200 (row 3)\n');
  });

  it("is empty until something is added", () => {
    const notes = new Notes();
    expect(notes.empty).toBe(true);
    notes.add(2, [], [express]);
    expect(notes.empty).toBe(false);
  });
});
