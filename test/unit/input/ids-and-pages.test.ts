import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { parseId } from "../../../src/input/ids.js";
import { parsePageFlags } from "../../../src/input/page-flags.js";

describe("parseId", () => {
  it("reads plain digits", () => {
    expect(parseId("12", "address id")).toBe(12);
    expect(parseId(" 7 ", "shipment id")).toBe(7);
  });

  it.each(["0", "-1", "1.5", "abc", "", "1e3"])("refuses %j with exit 2 naming the argument", (text) => {
    expect(() => parseId(text, "address id")).toThrow(UsageError);
    expect(() => parseId(text, "address id")).toThrow(/address id must be a positive whole number/);
  });

  it("calls an id of too many digits too large, not \"not whole\"", () => {
    expect(() => parseId("99999999999999999999", "address id")).toThrow('address id is too large (got "99999999999999999999")');
  });
});

describe("parsePageFlags", () => {
  it("defaults to page 1 and leaves the page size to the service", () => {
    expect(parsePageFlags({})).toEqual({ page: 1 });
  });

  it("accepts the limit's edges 1 and 50", () => {
    expect(parsePageFlags({ page: "3", limit: "1" })).toEqual({ page: 3, limit: 1 });
    expect(parsePageFlags({ limit: "50" })).toEqual({ page: 1, limit: 50 });
  });

  it.each([
    [{ limit: "0" }, /--limit must be between 1 and 50/],
    [{ limit: "51" }, /--limit must be between 1 and 50/],
    [{ limit: "ten" }, /--limit must be a whole number/],
    [{ page: "0" }, /--page must be a whole number from 1/],
    [{ page: "2.5" }, /--page must be a whole number/],
    [{ page: "99999999999999999999" }, '--page is too large (got "99999999999999999999")'],
    [{ limit: "99999999999999999999" }, '--limit must be between 1 and 50 (got "99999999999999999999")'],
  ])("refuses %j", (flags, message) => {
    expect(() => parsePageFlags(flags)).toThrow(UsageError);
    expect(() => parsePageFlags(flags)).toThrow(message);
  });
});
