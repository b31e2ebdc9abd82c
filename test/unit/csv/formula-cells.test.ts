import { describe, expect, it } from "vitest";
import { csvCell, csvLine, neutralise } from "../../../src/csv/formula-cells.js";
import { errorsPathFor } from "../../../src/csv/results-csv.js";

describe("CSV cells written by shipctl", () => {
  it("neutralises cells a spreadsheet would run as formulas", () => {
    for (const cell of ["=HYPERLINK(\"x\")", "+12069536978", "-5", "@SUM(A1)", "\tx", "\rx"]) expect(neutralise(cell)).toBe(`'${cell}`);
    for (const cell of ["Blue Study", "1200", "a=b"]) expect(neutralise(cell)).toBe(cell);
  });

  it("quotes as RFC 4180 says", () => {
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(undefined)).toBe("");
    expect(csvLine(["a", 1, "=1+1"])).toBe("a,1,'=1+1\r\n");
  });

  it("names the errors file after the results file", () => {
    expect(errorsPathFor("/x/results.csv")).toBe("/x/results.errors.csv");
    expect(errorsPathFor("/x/out")).toBe("/x/out.errors.csv");
  });
});
