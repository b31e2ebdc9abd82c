import { describe, expect, it } from "vitest";
import { BACKOFF, backoffDelay, parseRetryAfter } from "../../../src/api/backoff.js";

const NOW = new Date("2025-01-15T12:00:00Z");

describe("backoffDelay (exponential, full jitter)", () => {
  it("doubles the bound with each retry, up to the maximum", () => {
    const atTop = () => 0.999999;
    expect(backoffDelay(1, atTop)).toBe(BACKOFF.baseMs - 1);
    expect(backoffDelay(2, atTop)).toBe(2 * BACKOFF.baseMs - 1);
    expect(backoffDelay(3, atTop)).toBe(4 * BACKOFF.baseMs - 1);
    expect(backoffDelay(30, atTop)).toBe(BACKOFF.maxMs - 1);
  });

  it("picks anywhere between zero and the bound", () => {
    expect(backoffDelay(3, () => 0)).toBe(0);
    expect(backoffDelay(3, () => 0.5)).toBe(BACKOFF.baseMs * 2);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter("1.5", NOW)).toBe(1500);
  });

  it("reads an HTTP date relative to now, and a past date as zero", () => {
    expect(parseRetryAfter("Wed, 15 Jan 2025 12:01:30 GMT", NOW)).toBe(90_000);
    expect(parseRetryAfter("Wed, 15 Jan 2025 11:00:00 GMT", NOW)).toBe(0);
  });

  it("measures an HTTP date from the answer's own Date when it has one: the service's clock", () => {
    // This machine's clock 3 hours behind the service's: the service still asks for 90 s, not 3 hours and 90 s.
    const behind = new Date(NOW.getTime() - 3 * 3_600_000);
    expect(parseRetryAfter("Wed, 15 Jan 2025 12:01:30 GMT", behind, "Wed, 15 Jan 2025 12:00:00 GMT")).toBe(90_000);
    // ...and 3 hours ahead: a wait of 90 s, not none.
    const ahead = new Date(NOW.getTime() + 3 * 3_600_000);
    expect(parseRetryAfter("Wed, 15 Jan 2025 12:01:30 GMT", ahead, "Wed, 15 Jan 2025 12:00:00 GMT")).toBe(90_000);
    // A Date that is not an HTTP date is not trusted: this machine's clock then.
    expect(parseRetryAfter("Wed, 15 Jan 2025 12:01:30 GMT", NOW, "2025-01-15")).toBe(90_000);
  });

  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter("", NOW)).toBeUndefined();
    expect(parseRetryAfter("-5", NOW)).toBeUndefined();
    expect(parseRetryAfter("soon", NOW)).toBeUndefined();
  });

  it("takes the first of repeated headers", () => {
    expect(parseRetryAfter(["7", "9"], NOW)).toBe(7000);
  });
});
