import { describe, expect, it } from "vitest";
import { formatUsd } from "../../../src/output/money.js";

describe("formatUsd", () => {
  it("formats cents as dollars with thousands separators", () => {
    expect(formatUsd(123456)).toBe("$1,234.56");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(5)).toBe("$0.05");
    expect(formatUsd(100)).toBe("$1.00");
    expect(formatUsd(100_000_000_00)).toBe("$100,000,000.00");
  });

  it("puts the sign before the dollar sign and never prints -$0.00", () => {
    expect(formatUsd(-5)).toBe("-$0.05");
    expect(formatUsd(-123456)).toBe("-$1,234.56");
    expect(formatUsd(-0.4)).toBe("$0.00");
  });

  it("rounds fractions of a cent and refuses non-numbers", () => {
    expect(formatUsd(10.5)).toBe("$0.11");
    expect(() => formatUsd(Number.NaN)).toThrow(TypeError);
    expect(() => formatUsd(Infinity)).toThrow(TypeError);
  });
});
