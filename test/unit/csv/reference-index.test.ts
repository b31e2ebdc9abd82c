import { describe, expect, it } from "vitest";
import { ReferenceIndex } from "../../../src/csv/reference-index.js";

describe("ReferenceIndex", () => {
  it("returns the first row of a reference seen before, across growth", () => {
    const index = new ReferenceIndex();
    for (let i = 0; i < 20_000; i++) expect(index.add(`INV-${i}`, i + 2)).toBeUndefined();
    expect(index.add("INV-0", 99_999)).toBe(2);
    expect(index.add("INV-19999", 99_999)).toBe(20_001);
    expect(index.add("inv-0", 5)).toBeUndefined();
    expect(index.add("", 6)).toBeUndefined();
    expect(index.add("", 7)).toBe(6);
  });

  it("starts empty again after release(), and works on", () => {
    const index = new ReferenceIndex();
    for (let i = 0; i < 5_000; i++) index.add(`R-${i}`, i + 2);
    index.release();
    expect(index.add("R-0", 10)).toBeUndefined();
    for (let i = 1; i < 5_000; i++) expect(index.add(`R-${i}`, i + 10)).toBeUndefined();
    expect(index.add("R-4999", 1)).toBe(5_009);
  });
});
