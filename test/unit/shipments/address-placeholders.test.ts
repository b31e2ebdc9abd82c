// The row builder hands the contract's Shipment schema each inline address as a placeholder id (the address was
// checked with its own schema when it was built): the schema must give that form the whole payload's verdict, on
// generated good and bad payloads compared one by one.
import { describe, expect, it } from "vitest";
import { ADDRESS_SIDES, SHIPMENT_BOUNDS, Shipment } from "../../../src/contract/index.js";

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADDRESS = { name: "Ada Collector", email: "ada@example.com", phone: "+12125550142", line_1: "20 West 34th Street", city: "New York", region: "NY", post_code: "10001", country: 1 };

/** Values around every edge of a field, and of the wrong type. */
function numberCandidates(range: { min: number; max: number }): unknown[] {
  return [range.min, range.max, range.min - 1, range.max + 1, Math.floor((range.min + range.max) / 2), range.min + 0.5, 0, -1, NaN, Infinity, -Infinity, String(range.min), null, undefined, 1e21, true];
}
const TITLES: unknown[] = ["Blue Study 1", "ab", "a", "x".repeat(50), "x".repeat(51), "é".repeat(50), "😀".repeat(25), "😀".repeat(26), "😀", "  ", "", " a ", 12, null, undefined, "\u00a0\u00a0"];
const SERVICES: unknown[] = [1, 2, 3, 0, -1, 1.5, "1", null, undefined, NaN, 99];
const IDS: unknown[] = [1, 7, 0, -3, 2.5, "4", null, NaN];

function payload(rand: () => number): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const p: Record<string, unknown> = { title: pick(TITLES), value: pick(numberCandidates(SHIPMENT_BOUNDS.value)), service: pick(SERVICES) };
  for (const dim of ["length", "height", "depth"] as const) p[dim] = pick(numberCandidates(SHIPMENT_BOUNDS[dim]));
  for (const side of ADDRESS_SIDES) {
    const how = rand();
    if (how < 0.4) p[`${side}_address`] = ADDRESS;
    else if (how < 0.75) p[`${side}_address_id`] = pick(IDS);
    else if (how < 0.85) {
      p[`${side}_address`] = ADDRESS;
      p[`${side}_address_id`] = pick(IDS);
    }
    // else: neither
  }
  if (rand() < 0.05) p.colour = "red";
  // Half are good payloads but for one field at most, so both verdicts are well represented.
  if (rand() < 0.5) {
    const broken = pick(Object.keys(p));
    const good: Record<string, unknown> = { title: "Blue Study", value: 500, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: ADDRESS, destination_address_id: 7 };
    return rand() < 0.5 ? good : { ...good, [broken]: p[broken] };
  }
  return p;
}

/** What the row builder gives zod: each inline address as a placeholder id (its own schema checked it). */
function withPlaceholders(p: Record<string, unknown>): Record<string, unknown> {
  const out = { ...p };
  for (const side of ADDRESS_SIDES) {
    if (out[`${side}_address`] === undefined) continue;
    delete out[`${side}_address`];
    if (out[`${side}_address_id`] === undefined) out[`${side}_address_id`] = 1;
    else out[`${side}_address`] = ADDRESS; // both given: the schema must still refuse it
  }
  return out;
}

describe("inline addresses as placeholder ids", () => {
  it("get the whole payload's verdict from the Shipment schema, on 20,000 generated payloads, good and bad", () => {
    const rand = prng(7);
    let good = 0;
    for (let i = 0; i < 20_000; i++) {
      const p = payload(rand);
      const whole = Shipment.safeParse(p).success;
      expect(Shipment.safeParse(withPlaceholders(p)).success, JSON.stringify(p)).toBe(whole);
      if (whole) good++;
    }
    expect(good).toBeGreaterThan(6_000);
    expect(good).toBeLessThan(14_000);
  });
});
