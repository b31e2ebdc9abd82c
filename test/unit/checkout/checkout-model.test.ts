import { describe, expect, it } from "vitest";
import { inGroups } from "../../../src/checkout/checkout-model.js";

describe("grouping", () => {
  it("splits into sessions of at most 10, in order", () => {
    const ids = Array.from({ length: 23 }, (_, i) => i + 1);
    expect(inGroups(ids).map((g) => g.length)).toEqual([10, 10, 3]);
    expect(inGroups(ids).flat()).toEqual(ids);
    expect(inGroups([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toHaveLength(1);
  });
});
