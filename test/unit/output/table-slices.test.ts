// cli-table3 lays out a table by comparing each cell with every cell above it (its issue #68): renderTable hands it
// slices of rows, never a whole long table. This file replaces the module (vi.mock), so it runs in a worker of its own.
import { describe, expect, it, vi } from "vitest";
import { renderTable } from "../../../src/output/table.js";

const laidOut: number[] = [];

vi.mock("cli-table3", async (importOriginal) => {
  const Real = ((await importOriginal()) as { default: new (options: object) => unknown[] }).default;
  class Counted extends Real {
    override push(...rows: unknown[]): number {
      laidOut.push(rows.length);
      return super.push(...rows);
    }
  }
  return { default: Counted };
});

describe("renderTable on a long table", () => {
  it("lays out at most 100 rows at a time, and prints every row", () => {
    const rows = Array.from({ length: 1_000 }, (_, i) => i + 1);
    const out = renderTable([{ header: "ROW", value: (r: number) => r, align: "right" }], rows);
    expect(out.trimEnd().split("\n")).toHaveLength(1_001);
    expect(Math.max(...laidOut)).toBeLessThanOrEqual(100);
    expect(laidOut.reduce((a, b) => a + b, 0)).toBe(1_000);
  });
});
