import { describe, expect, it } from "vitest";
import { looksLikeDuration, parseDuration } from "../../../src/input/duration.js";
import { UsageError } from "../../../src/errors.js";

describe("parseDuration", () => {
  it("reads spans in s, m, h, d and w, alone or together", () => {
    expect(parseDuration("6h", "--within")).toBe(6 * 3_600_000);
    expect(parseDuration("1d12h", "--within")).toBe(36 * 3_600_000);
    expect(parseDuration(" 90M ", "--within")).toBe(90 * 60_000);
    expect(parseDuration("2w", "--within")).toBe(14 * 86_400_000);
  });

  it("takes a bare number only where the flag names its unit", () => {
    expect(parseDuration("7", "--since", "d")).toBe(7 * 86_400_000);
    expect(() => parseDuration("6", "--within")).toThrow(UsageError);
    expect(() => parseDuration("6 hours", "--within")).toThrow(/--within must be a span of time/);
  });

  it("tells a span from a date", () => {
    expect(looksLikeDuration("180d")).toBe(true);
    expect(looksLikeDuration("2026-03-01")).toBe(false);
  });
});
