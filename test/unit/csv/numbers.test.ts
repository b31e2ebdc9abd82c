import { describe, expect, it } from "vitest";
import { DecimalMarks, readId, readWholeNumber } from "../../../src/csv/numbers.js";

const value = (text: string, commaDecimal = false) => readWholeNumber(text, { column: "value", unit: "dollars", commaDecimal });
const inches = (text: string) => readWholeNumber(text, { column: "length", unit: "inches" });

describe("readWholeNumber", () => {
  it.each([
    ["1200", 1200, false],
    ["$1,200", 1200, true],
    ["1,200.00", 1200, true],
    ["1200.00", 1200, true],
    ["USD 1200", 1200, true],
    ["1 200", 1200, true],
    ["1\u00a0200,00", 1200, true],
    ["1.200,00", 1200, true],
    ["1.200.000", 1200000, true],
    ["1200,00", 1200, true],
    ["(50)", -50, true],
    ["  75 ", 75, false],
  ])("reads %j as %d (changed: %s)", (text, expected, changed) => {
    expect(value(text)).toEqual({ ok: true, value: expected, changed });
  });

  it("refuses a value that would have to be rounded, never changing it silently", () => {
    const r = value("1200.50");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/value "1200.50" has a fractional part: the service takes whole US dollars; shipctl never rounds/);
    expect(inches("17.5").ok).toBe(false);
  });

  it("calls a number too large to hold exactly too large, naming the column's bounds", () => {
    const r = readWholeNumber("99999999999999999999", { column: "value", unit: "dollars", range: { min: 50, max: 10000 } });
    expect(r).toEqual({ ok: false, reason: 'value "99999999999999999999" is too large: value must be between 50 and 10000 USD' });
  });

  it("reads an ambiguous separator the one way that is a possible value, and says it settled it", () => {
    const dollars = { min: 50, max: 10000 };
    const ranged = (text: string, commaDecimal = false) => readWholeNumber(text, { column: "value", unit: "dollars", commaDecimal, range: dollars });
    // 1.2 and 2.5 are not whole dollars; 1 is below the range; 50 is, where 50000 is above it.
    expect(ranged("$1.200")).toEqual({ ok: true, value: 1200, changed: true, separatorSettled: true });
    expect(ranged("2.500")).toEqual({ ok: true, value: 2500, changed: true, separatorSettled: true });
    expect(ranged("1,200", true)).toEqual({ ok: true, value: 1200, changed: true, separatorSettled: true });
    expect(ranged("1.000")).toMatchObject({ ok: true, value: 1000 });
    expect(ranged("50.000")).toMatchObject({ ok: true, value: 50 });
    expect(value("1,200").ok).toBe(true);
    expect(ranged("12.345")).toEqual({
      ok: false,
      reason:
        'value "12.345" reads as 12345 or as 12.345 (is "." a thousands separator or the decimal mark?), and neither is a whole number ' +
        "from 50 to 10000; format the column in the spreadsheet as a number without thousands separators and export it again",
    });
  });

  it("reads an ambiguous cell as the column's unambiguous cells above it write the decimal mark, before the range", () => {
    const marks = new DecimalMarks();
    const read = (text: string) => readWholeNumber(text, { column: "value", unit: "dollars", commaDecimal: true, marks, range: { min: 50, max: 10000 } });
    const unranged = (text: string) => readWholeNumber(text, { column: "n", commaDecimal: true, marks });
    expect(unranged("1.000")).toMatchObject({ ok: false, reason: expect.stringMatching(/reads as 1000 or as 1 .*and both are possible; format the column/) });
    expect(read("50.000")).toMatchObject({ ok: true, value: 50 });
    expect(read("$10.000,00")).toMatchObject({ ok: true, value: 10000 });
    expect(read("$850,00")).toMatchObject({ ok: true, value: 850 });
    // In German 50.000 is fifty thousand: the schema then refuses it as out of range, naming 50000.
    expect(read("50.000")).toEqual({ ok: true, value: 50000, changed: true, separatorSettled: true });
    expect(unranged("1.000")).toEqual({ ok: true, value: 1000, changed: true, separatorSettled: true });
    expect(read("2,500")).toMatchObject({ ok: false, reason: expect.stringMatching(/^value "2,500" has a fractional part \(this column's other cells write "," as the decimal mark\)/) });
    // A column that writes both marks proves nothing.
    expect(read("1,200.50").ok).toBe(false);
    expect(unranged("1.000").ok).toBe(false);
  });

  it("refuses other currencies, other units and text", () => {
    expect(value("€1,200")).toMatchObject({ ok: false, reason: expect.stringMatching(/not in US dollars/) });
    expect(value("GBP 100").ok).toBe(false);
    expect(inches("43 cm")).toMatchObject({ ok: false, reason: expect.stringMatching(/not in inches/) });
    expect(value("about 1000")).toMatchObject({ ok: false, reason: 'value "about 1000" is not a number' });
    expect(value("1.2E+03").ok).toBe(false);
    expect(value("")).toEqual({ ok: false, reason: "value is required" });
  });

  it("accepts inch marks on dimensions", () => {
    expect(inches('17"')).toEqual({ ok: true, value: 17, changed: true });
    expect(inches("20 in")).toEqual({ ok: true, value: 20, changed: true });
    expect(inches("20.0")).toEqual({ ok: true, value: 20, changed: true });
  });
});

describe("readId", () => {
  it("takes positive whole numbers only", () => {
    expect(readId(" 12 ", "id")).toEqual({ ok: true, value: 12, changed: false });
    for (const bad of ["0", "12a", "1.0", "-3", ""]) expect(readId(bad, "id").ok).toBe(false);
  });

  it("calls an id of too many digits too large", () => {
    expect(readId("99999999999999999999", "fulfillment_address_id")).toEqual({ ok: false, reason: 'fulfillment_address_id "99999999999999999999" is too large to be an id' });
  });
});
