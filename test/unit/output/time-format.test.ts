import { describe, expect, it } from "vitest";
import { ceilToSecond, formatAge, formatDuration, formatSettleTime, formatTimestamp, parseTimestamp } from "../../../src/output/time-format.js";

describe("timestamps", () => {
  it("reads a zone-less service timestamp as UTC", () => {
    expect(parseTimestamp("2024-12-09 13:49:57")?.toISOString()).toBe("2024-12-09T13:49:57.000Z");
    expect(formatTimestamp("2024-12-09 13:49:57")).toBe("2024-12-09 13:49:57 UTC");
  });

  it("reads ISO 8601 with a zone as it says", () => {
    expect(formatTimestamp("2024-12-09T15:49:57+02:00")).toBe("2024-12-09 13:49:57 UTC");
    expect(formatTimestamp(new Date(Date.UTC(2025, 0, 2, 3, 4, 5)))).toBe("2025-01-02 03:04:05 UTC");
  });

  it("returns text that is not a timestamp unchanged, and empty for nothing", () => {
    expect(parseTimestamp("2024-02-31 10:00:00")).toBeUndefined();
    // With a zone too: Date alone rolls a day that does not exist into the next month.
    expect(parseTimestamp("2024-02-31T10:00:00Z")).toBeUndefined();
    expect(parseTimestamp("2026-04-31T10:00:00+01:00")).toBeUndefined();
    expect(parseTimestamp("2024-02-29T23:30:00-01:00")?.toISOString()).toBe("2024-03-01T00:30:00.000Z");
    // Minutes and seconds past 59 (10:60, 10:99:99) rolled on within the day, and the years 0000-0099 read as 19xx:
    // `list shipments --created-before "2026-03-01 10:99:99"` filtered at 11:40:39 without a word.
    expect(parseTimestamp("2026-03-01 10:60:00")).toBeUndefined();
    expect(parseTimestamp("2026-03-01T10:99:99")).toBeUndefined();
    expect(parseTimestamp("2026-03-01 10:00:60")).toBeUndefined();
    expect(parseTimestamp("0050-01-01 00:00:00")).toBeUndefined();
    expect(parseTimestamp("2026-03-01 23:59:59.5")?.toISOString()).toBe("2026-03-01T23:59:59.000Z");
    expect(formatTimestamp("2024-02-31 10:00:00")).toBe("2024-02-31 10:00:00");
    expect(formatTimestamp("soon")).toBe("soon");
    expect(formatTimestamp(null)).toBe("");
    expect(formatTimestamp(undefined)).toBe("");
  });

  it("adds the age when given the current time", () => {
    const now = new Date("2024-12-09T16:49:57Z");
    expect(formatTimestamp("2024-12-09 13:49:57", { now })).toBe("2024-12-09 13:49:57 UTC (3 h ago)");
    expect(formatAge(-90_000)).toBe("in 1 min");
    expect(formatAge(2 * 86_400_000 + 5)).toBe("2 d ago");
  });

  it("formats short durations for progress lines", () => {
    expect(formatDuration(4_400)).toBe("4s");
    expect(formatDuration(75_000)).toBe("1m15s");
    expect(formatDuration(3_700_000)).toBe("1h01m");
    expect(formatDuration(-5)).toBe("0s");
    expect(formatDuration(30 * 86_400_000 + 3 * 3_600_000 + 59_000)).toBe("30d03h");
  });
});

describe("settle times", () => {
  it("are said rounded up to the second, so a rerun at the time said is past them", () => {
    expect(formatSettleTime(new Date("2026-11-25T04:30:01.637Z"))).toBe("2026-11-25 04:30:02 UTC");
    expect(formatSettleTime(new Date("2026-11-25T04:30:01.000Z"))).toBe("2026-11-25 04:30:01 UTC");
    expect(formatSettleTime(new Date("2026-11-25T04:30:01.637Z"), { clock: true })).toBe("04:30:02 UTC");
    expect(ceilToSecond(new Date("2026-11-25T23:59:59.001Z")).toISOString()).toBe("2026-11-26T00:00:00.000Z");
  });
});
