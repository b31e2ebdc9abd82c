import { describe, expect, it } from "vitest";
import { formatSignedDuration, parseDuration } from "../../../src/input/duration.js";
import { UsageError } from "../../../src/errors.js";

describe("parseDuration", () => {
  it.each([
    ["+25h", 90_000_000],
    ["25H", 90_000_000],
    [" -90m ", -5_400_000],
    ["30d", 2_592_000_000],
    ["1d12h30m5s", 131_405_000],
    ["0s", 0],
  ])("%j is %d ms", (text, ms) => {
    expect(parseDuration(text, "x")).toBe(ms);
  });

  it.each(["", "+", "25", "h", "1.5h", "+-1h", "1w", "1h 2m"])("%j is refused naming the flag", (text) => {
    expect(() => parseDuration(text, "--within")).toThrow(UsageError);
    expect(() => parseDuration(text, "--within")).toThrow(/^--within must be a duration/);
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
