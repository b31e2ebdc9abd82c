import { describe, expect, it } from "vitest";
import { readId, readWholeNumber } from "../../../src/csv/numbers.js";

const value = (text: string, commaDecimal = false) => readWholeNumber(text, { column: "value", dollars: true, commaDecimal });
const inches = (text: string) => readWholeNumber(text, { column: "length", inches: true });

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

  it("refuses ambiguous separators instead of guessing", () => {
    expect(value("1.200").ok).toBe(false);
    expect(value("1,200").ok).toBe(true);
    expect(value("1,200", true)).toMatchObject({ ok: false, reason: expect.stringMatching(/ambiguous in a file that uses ";"/) });
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
});
