import { describe, expect, it, beforeAll } from "vitest";
import { renderTable, tableWidth, type Column } from "../../../src/output/table.js";
import { createTheme, loadColours } from "../../../src/output/theme.js";
import stringWidth from "string-width";

beforeAll(loadColours);

interface Row {
  id: number;
  title: string;
  price: string;
}

const columns: Column<Row>[] = [
  { header: "ID", value: (r) => r.id, align: "right", keep: true },
  { header: "TITLE", value: (r) => r.title },
  { header: "PRICE", value: (r) => r.price, align: "right", keep: true },
];
const rows: Row[] = [
  { id: 7, title: "Sunflowers, study in oil", price: "$1,234.56" },
  { id: 120, title: "Nighthawks", price: "$5.00" },
];

describe("renderTable", () => {
  it("prints a header and one line per row, columns two spaces apart, no borders or trailing spaces", () => {
    expect(renderTable(columns, rows)).toBe(
      [" ID  TITLE                         PRICE", "  7  Sunflowers, study in oil  $1,234.56", "120  Nighthawks                    $5.00", ""].join("\n"),
    );
  });

  it("cuts the widest shrinkable column with … to fit the width, keeping ids and amounts whole", () => {
    const out = renderTable(columns, rows, { width: 30 });
    for (const line of out.trimEnd().split("\n")) expect([...line].length).toBeLessThanOrEqual(30);
    expect(out).toContain("…");
    expect(out).toContain("$1,234.56");
    expect(out).toContain("120");
  });

  it("prints a long table as one: the columns measured over every row, wide characters as two cells, one header", () => {
    const many: Row[] = Array.from({ length: 250 }, (_, i) => ({ id: i + 1, title: `Study ${i + 1}`, price: "$5.00" }));
    many[4]!.title = "東京国立博物館の屏風";
    many[239]!.title = "The widest title of them all, far down the table";
    const lines = renderTable(columns, many).trimEnd().split("\n");
    expect(lines).toHaveLength(251);
    expect(lines.filter((l) => l.includes("TITLE"))).toHaveLength(1);
    // The last column is aligned right: every line, the header's included, ends in the same terminal cell.
    const ends = new Set(lines.map((l) => stringWidth(l)));
    expect([...ends]).toEqual([stringWidth(lines[240]!)]);
    expect(lines[5]).toContain("東京国立博物館の屏風");
  });

  it("keeps each row on one line even when a value holds a newline", () => {
    const out = renderTable(columns, [{ id: 1, title: "two\nlines", price: "$1.00" }]);
    expect(out.trimEnd().split("\n")).toHaveLength(2);
    expect(out).toContain("two lines");
  });

  it("prints only the header for no rows, and empty cells for missing values", () => {
    expect(renderTable(columns, [])).toBe("ID  TITLE  PRICE\n");
    const cols: Column<{ a?: string }>[] = [{ header: "A", value: (r) => r.a }, { header: "B", value: () => null }];
    expect(renderTable(cols, [{ a: "x" }, {}])).toBe("A  B\nx\n\n");
  });

  it("makes the header bold only when the theme has colour", () => {
    expect(renderTable(columns, rows, { theme: createTheme(true) })).toContain("\x1b[1mTITLE");
    expect(renderTable(columns, rows, { theme: createTheme(false) })).not.toContain("\x1b[");
  });

  it("cuts only for a terminal", () => {
    expect(tableWidth({ stdoutIsTTY: true, columns: 90 })).toBe(90);
    expect(tableWidth({ stdoutIsTTY: false, columns: 90 })).toBeUndefined();
  });
});
