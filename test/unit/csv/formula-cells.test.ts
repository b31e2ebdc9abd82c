import { describe, expect, it } from "vitest";
import { csvCell, csvLine, neutralise, restoreNeutralised } from "../../../src/csv/formula-cells.js";
import { cellAt } from "../../../src/csv/cells.js";
import { errorsPathFor } from "../../../src/csv/results-csv.js";

describe("CSV cells written by shipctl", () => {
  it("neutralises cells a spreadsheet would run as formulas", () => {
    for (const cell of ["=HYPERLINK(\"x\")", "+12069536978", "-5", "@SUM(A1)", "\tx", "\rx"]) expect(neutralise(cell)).toBe(`'${cell}`);
    for (const cell of ["Blue Study", "1200", "a=b"]) expect(neutralise(cell)).toBe(cell);
  });

  it("keeps digits with a leading zero as text (a post code such as 01067), not a number that loses the zero", () => {
    for (const cell of ["01067", "00197"]) expect(neutralise(cell)).toBe(`'${cell}`);
    for (const cell of ["0", "98101", "0a1", "1067"]) expect(neutralise(cell)).toBe(cell);
  });

  it("reads back every cell it wrote as it was, through the reader the batch commands use", () => {
    const cells = ["=HYPERLINK(\"x\")", "+12069536978", "-5", "01067", "'plain", "Blue Study", "", "a=b", "0"];
    for (const cell of cells) {
      expect(restoreNeutralised(neutralise(cell)), cell).toBe(cell);
      expect(cellAt([neutralise(cell)], 0), cell).toBe(cell);
    }
    // A quote shipctl did not add is kept.
    expect(restoreNeutralised("'plain")).toBe("'plain");
  });

  it("changes nothing when a cell is neutralised twice (a results file run again copies its cells as they are)", () => {
    for (const cell of ["+12069536978", "=1+1", "01067", "Blue Study"]) expect(neutralise(neutralise(cell))).toBe(neutralise(cell));
  });

  it("writes ; as the delimiter when asked, quoting cells that hold one", () => {
    expect(csvLine(["a;b", 1, "+1"], ";")).toBe(`"a;b";1;'+1\r\n`);
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
