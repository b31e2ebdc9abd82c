// Post codes read with their row's country and region: leading zeros put back only where the padded code fits, a
// code that fits neither its country's format nor (US) its state refused naming the cell, a warning where the
// country's format is unknown.
import { describe, expect, it } from "vitest";
import { readPostCode } from "../../../src/csv/address-row.js";

describe("readPostCode", () => {
  it.each([
    ["1067", "DE", "Sachsen", "01067"],
    ["197", "IT", "Lazio", "00197"],
    ["2108", "US", "MA", "02108"],
    ["2134-1234", "US", "Massachusetts", "02134-1234"],
    ["901", "US", "PR", "00901"],
    ["9410", "US", "AE", "09410"],
    ["150", "NO", "Oslo", "0150"],
    ["1310100", "BR", "SP", "01310100"],
  ])("puts back the zeros of %j in %s (%s): %j, with a note", (text, alpha2, region, value) => {
    expect(readPostCode(text, alpha2, region, "post_code")).toEqual({ ok: true, value, change: { column: "post_code", from: text, to: value, kind: "post-code" } });
  });

  it("refuses a short ZIP whose padded form belongs to another state, naming the cell and the state", () => {
    const r = readPostCode("9410", "US", "CA", "destination_post_code");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe(
      'destination_post_code "9410" (09410 with the leading zeros a spreadsheet drops) is not a ZIP of CA: ZIP codes of CA begin 900-961, and 094 is AE\'s; write the ZIP in full',
    );
  });

  it("refuses a full ZIP of another state, and a short one where the region is not a state", () => {
    expect(readPostCode("98101", "US", "California", "post_code")).toMatchObject({ ok: false, reason: expect.stringContaining("is not a ZIP of CA") });
    expect(readPostCode("2108", "US", "Ontario", "post_code")).toMatchObject({ ok: false, reason: expect.stringContaining('region "Ontario" is not a US state') });
    expect(readPostCode("98101", "US", "Ontario", "post_code")).toEqual({ ok: true, value: "98101" });
  });

  it.each([
    ["101170", "DE"],
    ["ABCDE", "DE"],
    ["750041", "IT"],
    ["1234", "NL"],
    ["123456", "US"],
  ])("refuses %j, not in the format of %s", (text, alpha2) => {
    expect(readPostCode(text, alpha2, "", "post_code")).toMatchObject({ ok: false, reason: expect.stringContaining(`post_code "${text}" is not a post code of ${alpha2}`) });
  });

  it("leaves full codes, codes with letters and codes of countries whose codes never begin with 0 alone", () => {
    for (const [text, alpha2, region] of [["01067", "DE", ""], ["98101", "US", "WA"], ["SW1A 1AA", "GB", ""], ["k1a 0b1", "CA", "ON"], ["1010", "AT", ""], ["00-950", "PL", ""], ["1012 AB", "NL", ""], ["anything", "HK", ""]] as const) {
      expect(readPostCode(text, alpha2, region, "post_code")).toEqual({ ok: true, value: text });
    }
  });

  it("warns about a code of digits only where it does not know the country's format", () => {
    const warning = { ok: true, value: "1067", change: { column: "post_code", from: "1067", to: "1067", kind: "post-code-unchecked" } };
    expect(readPostCode("1067", undefined, "", "post_code")).toEqual(warning);
    expect(readPostCode("1067", "LU", "", "post_code")).toEqual(warning);
    expect(readPostCode("L-1067", "LU", "", "post_code")).toEqual({ ok: true, value: "L-1067" });
  });
});
