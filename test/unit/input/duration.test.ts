import { describe, expect, it } from "vitest";
import { formatSignedDuration, looksLikeDuration, parseDuration } from "../../../src/input/duration.js";
import { UsageError } from "../../../src/errors.js";

describe("parseDuration", () => {
  it("reads spans in s, m, h, d and w, alone or together", () => {
    expect(parseDuration("6h", "--within")).toBe(6 * 3_600_000);
    expect(parseDuration("1d12h", "--within")).toBe(36 * 3_600_000);
    expect(parseDuration(" 90M ", "--within")).toBe(90 * 60_000);
    expect(parseDuration("2w", "--within")).toBe(14 * 86_400_000);
    expect(parseDuration("1d12h30m5s", "x")).toBe(131_405_000);
  });

  it.each([
    ["+25h", 90_000_000],
    ["25H", 90_000_000],
    [" -90m ", -5_400_000],
    ["30d", 2_592_000_000],
    ["0s", 0],
  ])("signed: %j is %d ms", (text, ms) => {
    expect(parseDuration(text, "x", { signed: true })).toBe(ms);
  });

  it("refuses a sign where the flag takes a span, naming the flag", () => {
    expect(() => parseDuration("-6h", "--within")).toThrow(/^--within must be a duration like 6h/);
  });

  it("takes a bare number only where the flag names its unit", () => {
    expect(parseDuration("7", "--since", { bareUnit: "d" })).toBe(7 * 86_400_000);
    expect(() => parseDuration("6", "--within")).toThrow(UsageError);
    expect(() => parseDuration("6 hours", "--within")).toThrow(/--within must be a duration/);
  });

  it("refuses a bare number too long to count, as it refuses the same number with its unit", () => {
    // `due --since 99999999999999999999` was taken (as 8.64e27 ms) while "99999999999999999999d" was refused.
    for (const text of ["99999999999999999999", "99999999999999999999d"]) {
      expect(() => parseDuration(text, "--since", { bareUnit: "d" })).toThrow(`--since is too long (got "${text}")`);
    }
  });

  it.each(["", "+", "25", "h", "1.5h", "+-1h", "1h 2m"])("%j is refused naming the flag", (text) => {
    expect(() => parseDuration(text, "--at", { signed: true })).toThrow(UsageError);
    expect(() => parseDuration(text, "--at", { signed: true })).toThrow(/^--at must be a duration/);
  });

  it("tells a span from a date", () => {
    expect(looksLikeDuration("180d")).toBe(true);
    expect(looksLikeDuration("2026-03-01")).toBe(false);
  });
});

describe("formatSignedDuration", () => {
  it.each([
    [90_000_000, "+1d1h"],
    [-5_400_000, "-1h30m"],
    [0, "0s"],
    [1500, "+1s"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatSignedDuration(ms)).toBe(text);
  });
});
