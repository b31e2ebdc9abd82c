import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { parseCheckoutOptions, parseDollars, parseShipmentIds } from "../../../src/checkout/checkout-options.js";
import { groupIds } from "../../../src/checkout/checkout-model.js";

describe("checkout ids", () => {
  it("takes separate and comma-separated ids, in order", () => {
    expect(parseShipmentIds(["12", "7,9", " 30 "])).toEqual([12, 7, 9, 30]);
  });

  it.each(["abc", "0", "-1", "1.5", "1e3", "12a", "99999999999999999999"])("refuses %s naming it", (bad) => {
    expect(() => parseShipmentIds(["5", bad])).toThrowError(UsageError);
    expect(() => parseShipmentIds(["5", bad])).toThrowError(`shipment id "${bad}" is not a whole positive number`);
  });

  it("refuses a duplicate, also across commas", () => {
    expect(() => parseShipmentIds(["5", "6,5"])).toThrowError("shipment id 5 is given more than once");
  });

  it("refuses an empty list", () => {
    expect(() => parseShipmentIds([","])).toThrowError("no shipment ids given");
  });
});

describe("--max-total", () => {
  it.each([
    ["250", 25000],
    ["249.99", 24999],
    ["249.9", 24990],
    ["$1,250.50", 125050],
    ["0", 0],
  ])("reads %s as %i cents", (text, cents) => {
    expect(parseDollars(text, "--max-total")).toBe(cents);
  });

  it.each(["12.345", "abc", "-5", "", "1,25"])("refuses %j with an example", (bad) => {
    expect(() => parseDollars(bad, "--max-total")).toThrowError(/--max-total ".*" is not an amount in dollars/);
  });
});

describe("retry flags", () => {
  it("defaults to 60 s and 3 retries", () => {
    expect(parseCheckoutOptions(["1"], {})).toMatchObject({ retryWaitSeconds: 60, retries: 3, yes: false });
  });

  it("accepts 0 for both", () => {
    expect(parseCheckoutOptions(["1"], { retryWait: "0", retries: "0" })).toMatchObject({ retryWaitSeconds: 0, retries: 0 });
  });

  it.each([
    [{ retryWait: "1.5" }, '--retry-wait "1.5" is not a whole number of seconds'],
    [{ retryWait: "-1" }, '--retry-wait "-1"'],
    [{ retries: "many" }, '--retries "many" is not a whole number'],
  ])("refuses %j", (flags, message) => {
    expect(() => parseCheckoutOptions(["1"], flags)).toThrowError(message);
  });
});

describe("grouping", () => {
  it("splits into sessions of at most 10, in order", () => {
    const ids = Array.from({ length: 23 }, (_, i) => i + 1);
    expect(groupIds(ids).map((g) => g.length)).toEqual([10, 10, 3]);
    expect(groupIds(ids).flat()).toEqual(ids);
    expect(groupIds([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toHaveLength(1);
  });
});
