// Post codes a spreadsheet stored as numbers: leading zeros put back where the country's format is known, a warning
// where it is not.
import { describe, expect, it } from "vitest";
import { readPostCode } from "../../../src/csv/post-code-cell.js";

describe("readPostCode", () => {
  it.each([
    ["1067", "DE", "01067"],
    ["197", "IT", "00197"],
    ["2134", "US", "02134"],
    ["2134-1234", "US", "02134-1234"],
    ["150", "NO", "0150"],
    ["1310100", "BR", "01310100"],
  ])("puts back the zeros of %j in %s: %j, with a note", (text, alpha2, value) => {
    expect(readPostCode(text, alpha2, "post_code")).toEqual({ value, change: { column: "post_code", from: text, to: value, kind: "post-code" } });
  });

  it("leaves full codes, codes with letters and codes of countries whose codes never begin with 0 alone", () => {
    for (const [text, alpha2] of [["01067", "DE"], ["98101", "US"], ["SW1A 1AA", "GB"], ["1010", "AT"], ["00-950", "PL"], ["1234", "NL"]] as const) {
      expect(readPostCode(text, alpha2, "post_code")).toEqual({ value: text });
    }
  });

  it("warns about a code of digits only where it does not know the country's format", () => {
    const warning = { value: "1067", change: { column: "post_code", from: "1067", to: "1067", kind: "post-code-unchecked" } };
    expect(readPostCode("1067", undefined, "post_code")).toEqual(warning);
    expect(readPostCode("1067", "LU", "post_code")).toEqual(warning);
    expect(readPostCode("L-1067", "LU", "post_code")).toEqual({ value: "L-1067" });
  });
});
