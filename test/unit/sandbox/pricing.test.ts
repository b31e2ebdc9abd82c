import { describe, expect, it } from "vitest";
import { SANDBOX_SERVICES, SHIPMENT_BOUNDS } from "../../../src/contract/index.js";
import { priceCents, SERVICE_RATES } from "../../../src/sandbox/pricing.js";

describe("priceCents: base(service) + volume x rate(service) + ceil(1.5 % of value)", () => {
  it("matches the documented examples", () => {
    expect(priceCents({ service: 1, length: 20, height: 16, depth: 2, value: 1000 })).toBe(2500 + 640 + 1500);
    expect(priceCents({ service: 2, length: 17, height: 13, depth: 1, value: 50 })).toBe(4500 + 221 * 2 + 75);
    expect(priceCents({ service: 3, length: 44, height: 34, depth: 4, value: 10000 })).toBe(9500 + 5984 * 3 + 15000);
  });

  it("rounds the insurance up to a whole cent", () => {
    expect(priceCents({ service: 1, length: 17, height: 13, depth: 1, value: 51 })).toBe(2500 + 221 + 77);
  });

  it("gives an integer for every service at every edge, growing with each input", () => {
    for (const { id } of SANDBOX_SERVICES) {
      expect(SERVICE_RATES[id]).toBeDefined();
      const low = { service: id, length: SHIPMENT_BOUNDS.length.min, height: SHIPMENT_BOUNDS.height.min, depth: SHIPMENT_BOUNDS.depth.min, value: SHIPMENT_BOUNDS.value.min };
      const high = { service: id, length: SHIPMENT_BOUNDS.length.max, height: SHIPMENT_BOUNDS.height.max, depth: SHIPMENT_BOUNDS.depth.max, value: SHIPMENT_BOUNDS.value.max };
      expect(Number.isInteger(priceCents(low))).toBe(true);
      expect(priceCents(high)).toBeGreaterThan(priceCents(low));
    }
  });

  it("refuses a service without a rate", () => {
    expect(() => priceCents({ service: 99, length: 20, height: 20, depth: 2, value: 100 })).toThrow(/unknown service 99/);
  });
});
