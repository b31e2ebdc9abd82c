import { describe, expect, it } from "vitest";
import { RecentMatches, matchesRow } from "../../../../src/shipments/look/look-match.js";
import { StoredShipment, type Shipment } from "../../../../src/contract/index.js";

const ADDRESS = { name: "Gallery North", email: "ship@gallery.example", phone: "+12069536978", line_1: "1 Main Street", city: "Seattle", region: "WA", post_code: "98101", country: 1 };
const row: Shipment = { title: "Blue Study", value: 1200, length: 30, height: 24, depth: 3, service: 1, fulfillment_address_id: 12, destination_address: ADDRESS };
const own = { title: "Blue Study", status: 1, value: 1200, length: 30, height: 24, depth: 3, service: 1 };
const stored = (id: number, sides: Record<string, unknown>) => StoredShipment.parse({ id, ...own, ...sides, created_at: "2026-11-27 06:00:00" });

describe("a row against a stored shipment", () => {
  it.each([
    ["an id field and an inline object", { fulfillment_address_id: 12, destination_address: ADDRESS }],
    ["an inline object holding its id, and an inline object", { fulfillment_address: { ...ADDRESS, id: 12 }, destination_address: ADDRESS }],
    ["an id beside the object", { fulfillment_address_id: 12, fulfillment_address: ADDRESS, destination_address: { ...ADDRESS, id: null } }],
  ])("matches whichever shape the service uses: %s", (_, sides) => {
    expect(matchesRow(stored(1, sides), row)).toBe(true);
  });

  it("does not match when one field differs, another stored address is named, or an inline side comes back as an id alone", () => {
    expect(matchesRow(stored(1, { fulfillment_address_id: 12, destination_address: { ...ADDRESS, city: "Tacoma" } }), row)).toBe(false);
    expect(matchesRow(stored(1, { fulfillment_address_id: 13, destination_address: ADDRESS }), row)).toBe(false);
    expect(matchesRow(stored(1, { fulfillment_address_id: 12, destination_address_id: 40 }), row)).toBe(false);
    expect(matchesRow(StoredShipment.parse({ id: 1, ...own, value: 1300, fulfillment_address_id: 12, destination_address: ADDRESS }), row)).toBe(false);
  });

  it("n identical rows against m shipments: the first m rows take them, oldest first, each once", () => {
    const sides = { fulfillment_address_id: 12, destination_address: ADDRESS };
    const matches = new RecentMatches([
      { shipment: stored(9, sides), createdAt: 2 },
      { shipment: stored(7, sides), createdAt: 1 },
    ]);
    expect([1, 2, 3].map(() => matches.take(row)?.shipment.id)).toEqual([7, 9, undefined]);
  });
});
