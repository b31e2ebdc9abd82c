import { describe, expect, it } from "vitest";
import {
  ADDRESS_LENGTHS,
  Address,
  CheckoutRequest,
  CreateShipmentsRequest,
  PageQuery,
  SHIPMENT_BOUNDS,
  Shipment,
  charLength,
} from "../../../src/contract/index.js";
import { GALLERY as address } from "../../helpers/gallery.js";


const shipment = { title: "Untitled No. 4", value: 1200, length: 20, height: 16, depth: 2, service: 1, fulfillment_address_id: 1, destination_address: address };

function issuesOf(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return (result.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("Address field lengths, inclusive at both edges", () => {
  // A string of exactly n characters that also satisfies the field's format.
  const sized = (field: string, n: number): string => {
    if (field === "email") return `${"a".repeat(Math.max(1, n - 6))}@b.com`.slice(0, Math.max(n, 0)).padStart(n, "a");
    if (field === "phone") return `+1${"2".repeat(n - 2)}`;
    return "x".repeat(n);
  };
  for (const [field, { min, max }] of Object.entries(ADDRESS_LENGTHS)) {
    if (field === "phone") continue; // E.164 caps phones at 16 characters: covered below.
    it(`${field}: ${min} and ${max} pass, ${min - 1} and ${max + 1} fail`, () => {
      for (const n of [min, max]) expect(Address.safeParse({ ...address, [field]: sized(field, n) }).success, `${field} length ${n}`).toBe(true);
      for (const n of [min - 1, max + 1]) {
        const r = Address.safeParse({ ...address, [field]: sized(field, n) });
        expect(r.success, `${field} length ${n}`).toBe(false);
        expect(issuesOf(r).join()).toContain(field);
      }
    });
  }

  it("phone: 7 characters of E.164 pass, 6 fail, and the format rule refuses spaces and leading zeros", () => {
    expect(Address.safeParse({ ...address, phone: "+123456" }).success).toBe(true);
    expect(Address.safeParse({ ...address, phone: "+12345" }).success).toBe(false);
    expect(Address.safeParse({ ...address, phone: "+1 206 953 6978" }).success).toBe(false);
    expect(Address.safeParse({ ...address, phone: "+0206953697" }).success).toBe(false);
    expect(Address.safeParse({ ...address, phone: "2069536978" }).success).toBe(false);
  });

  it("counts characters, not UTF-16 units (an emoji is one character)", () => {
    expect(charLength("😀😀")).toBe(2);
    expect(Address.safeParse({ ...address, name: "😀😀" }).success).toBe(true);
    expect(Address.safeParse({ ...address, name: "é".repeat(50) }).success).toBe(true);
    expect(Address.safeParse({ ...address, name: "é".repeat(51) }).success).toBe(false);
  });

  it("line_2 is optional (absent or null) but bounded when given", () => {
    expect(Address.safeParse(address).success).toBe(true);
    expect(Address.safeParse({ ...address, line_2: null }).success).toBe(true);
    expect(Address.safeParse({ ...address, line_2: "A" }).success).toBe(false);
  });

  it("refuses unknown keys, a blank required field and a non-integer country", () => {
    expect(issuesOf(Address.safeParse({ ...address, colour: "red" })).join()).toMatch(/colour/);
    expect(issuesOf(Address.safeParse({ ...address, city: "   " })).join()).toMatch(/city is required/);
    expect(Address.safeParse({ ...address, country: 1.5 }).success).toBe(false);
    expect(Address.safeParse({ ...address, country: "1" }).success).toBe(false);
    expect(Address.safeParse({ ...address, email: "not-an-email" }).success).toBe(false);
  });
});

describe("Shipment bounds, inclusive at both edges", () => {
  for (const [field, { min, max }] of Object.entries(SHIPMENT_BOUNDS)) {
    it(`${field}: ${min} and ${max} pass, ${min - 1} and ${max + 1} fail`, () => {
      const at = (n: number) => (field === "title" ? "t".repeat(n) : n);
      for (const n of [min, max]) expect(Shipment.safeParse({ ...shipment, [field]: at(n) }).success, `${field}=${n}`).toBe(true);
      for (const n of [min - 1, max + 1]) {
        const r = Shipment.safeParse({ ...shipment, [field]: at(n) });
        expect(r.success, `${field}=${n}`).toBe(false);
        expect(issuesOf(r)[0]).toMatch(new RegExp(`^${field}: `));
      }
    });
  }

  it("calls a whole number too large to hold exactly out of range (a bound) or too large (an id), not \"not whole\"", () => {
    expect(issuesOf(Shipment.safeParse({ ...shipment, value: 1e21 }))).toEqual(["value: value must be between 50 and 10000 USD (got 1e+21)"]);
    expect(issuesOf(Shipment.safeParse({ ...shipment, fulfillment_address_id: 1e20 }))).toEqual(["fulfillment_address_id: fulfillment_address_id is too large"]);
    // As a flag gives it: text, in scientific notation.
    expect(issuesOf(Shipment.safeParse({ ...shipment, value: "1e21" }))).toEqual(["value: value is in scientific notation: write the number in plain digits"]);
  });

  it("refuses a value that would have to be rounded", () => {
    expect(issuesOf(Shipment.safeParse({ ...shipment, value: 1200.5 })).join()).toMatch(/value must be a whole number/);
  });

  it("takes exactly one of id or inline address on each side, independently", () => {
    const { fulfillment_address_id: _f, destination_address: _d, ...bare } = shipment;
    expect(Shipment.safeParse({ ...bare, fulfillment_address: address, destination_address_id: 7 }).success).toBe(true);
    expect(issuesOf(Shipment.safeParse(bare))).toEqual([
      "fulfillment_address_id: fulfillment_address_id or fulfillment_address is required",
      "destination_address_id: destination_address_id or destination_address is required",
    ]);
    expect(issuesOf(Shipment.safeParse({ ...shipment, fulfillment_address: address }))).toEqual([
      "fulfillment_address: give either fulfillment_address_id or fulfillment_address, not both",
    ]);
  });

  it("keys errors of an inline address by their path", () => {
    const r = CreateShipmentsRequest.safeParse({ shipments: [shipment, { ...shipment, destination_address: { ...address, phone: "12" } }] });
    expect(issuesOf(r)[0]).toMatch(/^shipments\.1\.destination_address\.phone: /);
  });
});

describe("request sizes", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ ...shipment, title: `Piece ${i + 1}` }));
  it("creates 1 to 10 shipments per request", () => {
    expect(CreateShipmentsRequest.safeParse({ shipments: many(1) }).success).toBe(true);
    expect(CreateShipmentsRequest.safeParse({ shipments: many(10) }).success).toBe(true);
    expect(CreateShipmentsRequest.safeParse({ shipments: many(0) }).success).toBe(false);
    expect(CreateShipmentsRequest.safeParse({ shipments: many(11) }).success).toBe(false);
  });

  it("checks out 1 to 10 distinct ids", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(CheckoutRequest.safeParse({ shipments: ids(1) }).success).toBe(true);
    expect(CheckoutRequest.safeParse({ shipments: ids(10) }).success).toBe(true);
    expect(CheckoutRequest.safeParse({ shipments: ids(0) }).success).toBe(false);
    expect(CheckoutRequest.safeParse({ shipments: ids(11) }).success).toBe(false);
    expect(issuesOf(CheckoutRequest.safeParse({ shipments: [3, 3] })).join()).toMatch(/twice/);
  });

  it("pages: limit 1 to 50, default 20 on page 1", () => {
    expect(PageQuery.parse({})).toEqual({ page: 1, limit: 20 });
    expect(PageQuery.safeParse({ limit: "1" }).success).toBe(true);
    expect(PageQuery.safeParse({ limit: "50" }).success).toBe(true);
    expect(PageQuery.safeParse({ limit: "0" }).success).toBe(false);
    expect(PageQuery.safeParse({ limit: "51" }).success).toBe(false);
    expect(PageQuery.safeParse({ page: "0" }).success).toBe(false);
    expect(PageQuery.safeParse({ limit: "2.5" }).success).toBe(false);
  });
});
