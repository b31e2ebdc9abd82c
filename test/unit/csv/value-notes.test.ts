// What was read differently and which names went through the tables: summed per column and per name, in the order
// first met, with a few examples, and bounded whatever the file.
import { describe, expect, it } from "vitest";
import { Notes } from "../../../src/csv/value-notes.js";
import type { Mapping } from "../../../src/csv/table-cells.js";

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
      "Names and codes mapped through the sandbox (default) tables:\n" +
        '  country "USA" -> 1 (United States), 3 uses\n' +
        '  service "Express" -> 2 (Express), 2 uses\n' +
        '  country "Germany" -> 5 (Germany), 1 use\n' +
        '  country "Express" -> 9 (Nowhere), 1 use\n',
    );
  });

  it("keeps three examples of each column's changes and counts the rest", () => {
    const notes = new Notes();
    for (let row = 2; row < 12; row++) notes.add(row, [{ column: "value", from: `$${row}.00`, to: String(row) }], []);
    const [value] = notes.toJSON().changes;
    expect(value).toEqual({ column: "value", rows: 10, examples: [2, 3, 4].map((row) => ({ row, from: `$${row}.00`, to: String(row) })) });
    expect(notes.render("x")).toContain('value: 10 rows (row 2: "$2.00" -> 2; row 3: "$3.00" -> 3; row 4: "$4.00" -> 4; ...)');
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
    expect(text).toContain('  title (line breaks and tabs folded to a space): 1 row (row 2: "Blue\\nStudy" -> Blue Study)\n');
    expect(text).toContain('  title (leading apostrophe dropped: ');
    expect(text).toContain('  value: 1 row (row 3: "$1,200" -> 1200)\n');
  });

  it("is empty until something is added", () => {
    const notes = new Notes();
    expect(notes.empty).toBe(true);
    notes.add(2, [], [express]);
    expect(notes.empty).toBe(false);
  });
});
