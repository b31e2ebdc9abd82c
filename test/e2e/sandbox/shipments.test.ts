// Shipments: every bound of the Shipment table at both edges, 1..10 per request, all-or-nothing, the address rules,
// update (Draft only, clears the price) and the read shape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHIPMENT_BOUNDS, ShipmentStatus } from "../../../src/contract/index.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { address, createShipments, send, shipment, text } from "./support.js";

let sb: TestSandbox;
let org: OrgTarget;
beforeAll(async () => {
  sb = await startTestSandbox({ clock: () => new Date("2025-06-01T12:00:00Z") });
  org = await sb.newOrg();
});
afterAll(() => sb.close());

const create = (target: OrgTarget, shipments: unknown[]) => send(target, "POST", "/api/v1/shipments", { json: { shipments } });

describe("bounds of the Shipment table (inclusive edges)", () => {
  it(`title: ${SHIPMENT_BOUNDS.title.min} and ${SHIPMENT_BOUNDS.title.max} characters accepted, one fewer and one more refused`, async () => {
    const { min, max } = SHIPMENT_BOUNDS.title;
    expect((await create(org, [shipment({ title: text(min) }), shipment({ title: text(max) })])).status).toBe(201);
    const r = await create(org, [shipment({ title: text(min - 1) }), shipment({ title: text(max + 1) })]);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["shipments.0.title", "shipments.1.title"]);
  });

  for (const field of ["value", "length", "height", "depth"] as const) {
    const { min, max } = SHIPMENT_BOUNDS[field];
    it(`${field}: ${min} and ${max} accepted, ${min - 1} and ${max + 1} refused`, async () => {
      const ok = await create(org, [shipment({ [field]: min }), shipment({ [field]: max })]);
      expect(ok.status).toBe(201);
      const r = await create(org, [shipment({ [field]: min - 1 }), shipment({ [field]: max + 1 })]);
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual({
        [`shipments.0.${field}`]: [expect.stringMatching(new RegExp(`^The shipments\\.0\\.${field} field must be between ${min} and ${max}`))],
        [`shipments.1.${field}`]: [expect.stringMatching(new RegExp(`^The shipments\\.1\\.${field} field must be between ${min} and ${max}`))],
      });
    });
  }

  it("refuses fractions and numeric strings", async () => {
    const r = await create(org, [shipment({ value: 100.5, depth: "2" })]);
    expect(Object.keys(r.body.errors).sort()).toEqual(["shipments.0.depth", "shipments.0.value"]);
  });

  it("refuses a service outside the sandbox table", async () => {
    const r = await create(org, [shipment({ service: 4 })]);
    expect(r.body.errors).toEqual({ "shipments.0.service": ["The selected shipments.0.service is invalid."] });
  });
});

describe("shipments per request: 1..10, all or nothing", () => {
  it("accepts 1 and 10, answering {id, title} in request order with consecutive ids", async () => {
    const o = await sb.newOrg();
    const one = await create(o, [shipment({ title: "Only" })]);
    expect(one.status).toBe(201);
    expect(one.body).toEqual({ shipments: [{ id: expect.any(Number), title: "Only" }] });
    const ten = await create(o, Array.from({ length: 10 }, (_, i) => shipment({ title: `Piece ${i}` })));
    expect(ten.status).toBe(201);
    const got = ten.body.shipments as Array<{ id: number; title: string }>;
    expect(got.map((s) => s.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Piece ${i}`));
    expect(got.map((s) => s.id - got[0]!.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("refuses 0 and 11", async () => {
    const zero = await create(org, []);
    expect(zero.status).toBe(422);
    expect(Object.keys(zero.body.errors)).toEqual(["shipments"]);
    const eleven = await create(org, Array.from({ length: 11 }, () => shipment()));
    expect(eleven.status).toBe(422);
    expect(eleven.body.errors.shipments[0]).toContain("at most 10");
  });

  it("stores nothing when one item of ten is invalid, and names that item", async () => {
    const o = await sb.newOrg();
    const items = Array.from({ length: 10 }, () => shipment());
    items[6] = shipment({ fulfillment_address: address({ phone: "555-0100" }) });
    const r = await create(o, items);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["shipments.6.fulfillment_address.phone"]);
    expect((await send(o, "GET", "/api/v1/shipments")).body.data).toEqual([]);
  });

  it("reports every error at once, with the framework's message and count", async () => {
    const r = await create(org, [shipment({ title: "x", value: 1 }), shipment({ depth: 9 })]);
    expect(r.body.message).toBe("The shipments.0.title field must be at least 2 characters (got 1). (and 2 more errors)");
  });

  it("refuses a body without shipments, or with shipments that is not a list", async () => {
    expect((await send(org, "POST", "/api/v1/shipments", { json: {} })).body.errors).toEqual({ shipments: ["The shipments field is required."] });
    expect(Object.keys((await send(org, "POST", "/api/v1/shipments", { json: { shipments: "x" } })).body.errors)).toEqual(["shipments"]);
  });
});

describe("address rules: exactly one of id or inline per side", () => {
  it("accepts an id on one side and inline details on the other", async () => {
    const o = await sb.newOrg();
    const addressId = (await send(o, "POST", "/api/v1/addresses", { json: address({ name: "Stored One" }) })).body.id;
    const r = await create(o, [shipment({ fulfillment_address: undefined, fulfillment_address_id: addressId })]);
    expect(r.status).toBe(201);
    const read = (await send(o, "GET", `/api/v1/shipments/${r.body.shipments[0].id}`)).body.data;
    expect(read.fulfillment_address).toMatchObject({ id: addressId, name: "Stored One" });
    expect(read.destination_address).toMatchObject({ id: null, name: "Grace Hopper" });
  });

  it("refuses neither and both, keyed per side", async () => {
    const addressId = (await send(org, "POST", "/api/v1/addresses", { json: address() })).body.id;
    const r = await create(org, [
      shipment({ fulfillment_address: undefined }),
      shipment({ destination_address_id: addressId }),
    ]);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({
      "shipments.0.fulfillment_address_id": ["The shipments.0.fulfillment_address_id field is required when shipments.0.fulfillment_address is not present."],
      "shipments.1.destination_address": [expect.stringContaining("not allowed together with shipments.1.destination_address_id")],
    });
  });

  it("refuses an address id that does not exist in the organization", async () => {
    const r = await create(org, [shipment({ destination_address: undefined, destination_address_id: 99_999_999 })]);
    expect(r.body.errors).toEqual({ "shipments.0.destination_address_id": ["The selected shipments.0.destination_address_id is invalid."] });
  });

  it("reports the address rule together with field errors", async () => {
    const r = await create(org, [shipment({ title: "x", fulfillment_address: undefined })]);
    expect(Object.keys(r.body.errors).sort()).toEqual(["shipments.0.fulfillment_address_id", "shipments.0.title"]);
  });
});

describe("GET /api/v1/shipments/{id}", () => {
  it("answers the wrapped shipment: Draft, no price, timestamps, both addresses", async () => {
    const [id] = await createShipments(org, 1);
    const r = await send(org, "GET", `/api/v1/shipments/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: {
        id,
        title: "Piece 1",
        status: ShipmentStatus.Draft,
        value: 1000,
        length: 20,
        height: 16,
        depth: 2,
        service: 1,
        fulfillment_address: { id: null, ...address(), line_2: null },
        destination_address: { id: null, ...address({ name: "Grace Hopper", line_1: "1 Museum Road" }), line_2: null },
        price: null,
        created_at: "2025-06-01 12:00:00",
        updated_at: "2025-06-01 12:00:00",
        delivered_at: null,
        arrived_at: null,
      },
    });
  });
});

describe("PATCH /api/v1/shipments/{id}", () => {
  it("answers 204, replaces the fields and clears the price", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    expect((await send(o, "GET", `/api/v1/checkout?shipments[]=${id}`)).status).toBe(200);
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).body.data.price).toEqual(expect.any(Number));
    const r = await send(o, "PATCH", `/api/v1/shipments/${id}`, { json: shipment({ title: "Renamed", value: 2000 }) });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    const read = (await send(o, "GET", `/api/v1/shipments/${id}`)).body.data;
    expect(read).toMatchObject({ title: "Renamed", value: 2000, price: null });
  });

  it("needs the full body, validated like one created shipment (keys without the shipments.N prefix)", async () => {
    const [id] = await createShipments(org, 1);
    const r = await send(org, "PATCH", `/api/v1/shipments/${id}`, { json: { title: "Only a title" } });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(expect.arrayContaining(["value", "length", "height", "depth", "service", "fulfillment_address_id", "destination_address_id"]));
    const bad = await send(org, "PATCH", `/api/v1/shipments/${id}`, { json: shipment({ fulfillment_address: address({ phone: "1" }) }) });
    expect(Object.keys(bad.body.errors)).toEqual(["fulfillment_address.phone"]);
  });

  it("is refused with 422 once the shipment is no longer a Draft", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    await o.control.setStatus(id!, "Confirmed");
    const r = await send(o, "PATCH", `/api/v1/shipments/${id}`, { json: shipment() });
    expect(r.status).toBe(422);
    expect(r.body.errors.shipment[0]).toContain("only while it is a Draft; it is Confirmed");
  });

  it("answers 404 for an unknown shipment", async () => {
    expect((await send(org, "PATCH", "/api/v1/shipments/88888888", { json: shipment() })).status).toBe(404);
  });
});
