// The price session (GET /api/v1/checkout) and finalize (POST /api/v1/checkout) with every payment-method state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { priceCents } from "../../../src/sandbox/pricing.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { createShipments, send, shipment } from "./support.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const query = (ids: number[]) => ids.map((id) => `shipments[]=${id}`).join("&");
const priceByQuery = (o: OrgTarget, ids: number[]) => send(o, "GET", `/api/v1/checkout?${query(ids)}`);
const priceByBody = (o: OrgTarget, ids: unknown) => send(o, "GET", "/api/v1/checkout", { json: { shipments: ids } });
const finalize = (o: OrgTarget, ids: unknown) => send(o, "POST", "/api/v1/checkout", { json: { shipments: ids } });

async function priced(count: number): Promise<{ o: OrgTarget; ids: number[] }> {
  const o = await sb.newOrg();
  const ids = await createShipments(o, count);
  const r = await priceByQuery(o, ids);
  if (r.status !== 200) throw new Error(r.text);
  return { o, ids };
}

describe("GET /api/v1/checkout (price session)", () => {
  it("prices by the documented formula, in cents, keyed by id, with the total", async () => {
    const o = await sb.newOrg();
    const [a] = await createShipments(o, 1, { value: 1000, length: 20, height: 16, depth: 2, service: 1 });
    const [b] = await createShipments(o, 1, { value: 10000, length: 44, height: 34, depth: 4, service: 3 });
    const r = await priceByQuery(o, [a!, b!]);
    expect(r.status).toBe(200);
    // Standard: 2500 + 20*16*2*1 + ceil(1000*1.5) = 4640; White Glove: 9500 + 44*34*4*3 + 15000 = 42452.
    expect(r.body).toEqual({ shipments: { [a!]: 4640, [b!]: 42452 }, total: 47092 });
    expect(priceCents({ value: 1000, length: 20, height: 16, depth: 2, service: 1 })).toBe(4640);
    expect((await send(o, "GET", `/api/v1/shipments/${a}`)).body.data.price).toBe(4640);
  });

  it("takes the ids from a JSON body on the GET as well", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 2);
    const r = await priceByBody(o, ids);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.shipments).map(Number)).toEqual(ids);
  });

  it("accepts both forms when they agree, and refuses them when they differ", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 3);
    const same = await send(o, "GET", `/api/v1/checkout?${query(ids)}`, { json: { shipments: [...ids].reverse() } });
    expect(same.status).toBe(200);
    const differ = await send(o, "GET", `/api/v1/checkout?${query(ids.slice(0, 2))}`, { json: { shipments: ids } });
    expect(differ.status).toBe(422);
    expect(differ.body.errors.shipments[0]).toContain("differ");
  });

  it("prices 1 and 10 shipments; refuses 0 and 11", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 11);
    expect((await priceByQuery(o, ids.slice(0, 1))).status).toBe(200);
    expect((await priceByQuery(o, ids.slice(0, 10))).status).toBe(200);
    const none = await send(o, "GET", "/api/v1/checkout");
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ shipments: ["The shipments field is required."] });
    expect((await priceByBody(o, [])).body.errors.shipments[0]).toContain("at least 1");
    const eleven = await priceByQuery(o, ids);
    expect(eleven.status).toBe(422);
    expect(eleven.body.errors.shipments[0]).toContain("at most 10");
  });

  it("refuses ids that are not whole numbers, and duplicates", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    expect(Object.keys((await send(o, "GET", "/api/v1/checkout?shipments[]=abc")).body.errors)).toEqual(["shipments.0"]);
    expect((await priceByBody(o, [id, id])).body.errors.shipments[0]).toContain("twice");
  });

  it("refuses (422 keyed shipments.N) ids of no shipment in the organization", async () => {
    const other = await sb.newOrg();
    const [foreign] = await createShipments(other, 1);
    const o = await sb.newOrg();
    const [own] = await createShipments(o, 1);
    const r = await priceByQuery(o, [own!, foreign!]);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["shipments.1"]);
    expect(r.body.errors["shipments.1"][0]).toContain(`no shipment ${foreign}`);
  });

  it("refuses (422) to price a shipment that is already paid", async () => {
    const { o, ids } = await priced(1);
    expect((await finalize(o, ids)).status).toBe(204);
    const r = await priceByQuery(o, ids);
    expect(r.status).toBe(422);
    expect(r.body.errors["shipments.0"][0]).toContain("already paid");
  });

  it("records each session for the control surface", async () => {
    const { o, ids } = await priced(2);
    const sessions = await o.control.priceSessions();
    expect(sessions).toHaveLength(1);
    expect(Object.keys(sessions[0]!.shipments).map(Number)).toEqual(ids);
  });

  it.each([
    [0, "Rate limited"],
    [1, "Failed"],
  ] as const)("fails the next N sessions with 500 {status: %i} when switched on, storing no price", async (status, message) => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 1);
    await o.control.failPriceSessions(2, status);
    for (let i = 0; i < 2; i++) {
      const r = await priceByQuery(o, ids);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ status, message });
    }
    expect((await send(o, "GET", `/api/v1/shipments/${ids[0]}`)).body.data.price).toBeNull();
    expect((await priceByQuery(o, ids)).status).toBe(200);
  });
});

describe("POST /api/v1/checkout (finalize)", () => {
  it("valid method: 204, shipments Confirmed with their price kept, the total charged once", async () => {
    const { o, ids } = await priced(3);
    const r = await finalize(o, ids);
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    for (const id of ids) {
      const s = (await send(o, "GET", `/api/v1/shipments/${id}`)).body.data;
      expect(s.status).toBe(ShipmentStatus.Confirmed);
      expect(s.price).toBe(4640);
    }
    const charges = await o.control.charges();
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ total: 3 * 4640, shipments: Object.fromEntries(ids.map((id) => [String(id), 4640])) });
  });

  it("finalizes 1 and 10; refuses 0 and 11", async () => {
    const one = await priced(1);
    expect((await finalize(one.o, one.ids)).status).toBe(204);
    const ten = await priced(10);
    expect((await finalize(ten.o, ten.ids)).status).toBe(204);
    expect((await finalize(ten.o, [])).status).toBe(422);
    const o = await sb.newOrg();
    const ids = await createShipments(o, 11);
    await priceByQuery(o, ids.slice(0, 10));
    await priceByQuery(o, ids.slice(10));
    const r = await finalize(o, ids);
    expect(r.status).toBe(422);
    expect(r.body.errors.shipments[0]).toContain("at most 10");
  });

  it("refuses (422) a shipment without a price, naming it", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 2);
    await priceByQuery(o, ids.slice(0, 1));
    const r = await finalize(o, ids);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["shipments.1"]);
    expect(r.body.errors["shipments.1"][0]).toContain("has no price");
    expect(await o.control.charges()).toEqual([]);
  });

  it("refuses (422) a shipment whose price an update cleared", async () => {
    const { o, ids } = await priced(1);
    await send(o, "PATCH", `/api/v1/shipments/${ids[0]}`, { json: shipment() });
    expect((await finalize(o, ids)).status).toBe(422);
  });

  it("refuses (422) a shipment updated after pricing, even when the rest of its session is listed alone", async () => {
    const { o, ids } = await priced(2);
    await send(o, "PATCH", `/api/v1/shipments/${ids[1]}`, { json: shipment({ title: "Changed" }) });
    const both = await finalize(o, ids);
    expect(both.status).toBe(422);
    expect(both.body.errors["shipments.1"][0]).toContain("has no price");
    const rest = await finalize(o, ids.slice(0, 1));
    expect(rest.status).toBe(422);
    expect(Object.keys(rest.body.errors)).toEqual(["shipments"]);
    expect(await o.control.charges()).toEqual([]);
  });

  it("never charges twice: finalizing a Confirmed shipment again is 422", async () => {
    const { o, ids } = await priced(1);
    expect((await finalize(o, ids)).status).toBe(204);
    const again = await finalize(o, ids);
    expect(again.status).toBe(422);
    expect(again.body.errors["shipments.0"][0]).toContain("already paid");
    expect(await o.control.charges()).toHaveLength(1);
  });

  it('no payment method: 403 with a bare JSON string', async () => {
    const { o, ids } = await priced(1);
    await o.control.setPaymentMethod("none");
    const r = await finalize(o, ids);
    expect(r.status).toBe(403);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.body).toBe("No valid payment method.");
    expect((await send(o, "GET", `/api/v1/shipments/${ids[0]}`)).body.data.status).toBe(ShipmentStatus.Draft);
  });

  it("declining card: 402 {status, message}, then the method is invalid (403) until set again", async () => {
    const { o, ids } = await priced(1);
    await o.control.setPaymentMethod("declining");
    const r = await finalize(o, ids);
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ status: expect.any(Number), message: expect.stringContaining("declined") });
    expect((await o.control.organization()).payment_method).toEqual({ state: "invalid" });
    expect((await finalize(o, ids)).status).toBe(403);
    await o.control.setPaymentMethod("valid");
    expect((await finalize(o, ids)).status).toBe(204);
    expect(await o.control.charges()).toHaveLength(1);
  });

  it("failing with count N: 409 {status, message} for the next N finalizations, then 204", async () => {
    const { o, ids } = await priced(1);
    await o.control.setPaymentMethod("failing", 2);
    for (let i = 0; i < 2; i++) {
      const r = await finalize(o, ids);
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ status: expect.any(Number), message: expect.stringContaining("minute") });
    }
    expect((await finalize(o, ids)).status).toBe(204);
  });

  it("validates before charging: a bad body is 422 even without a payment method", async () => {
    const o = await sb.newOrg();
    await o.control.setPaymentMethod("none");
    expect((await finalize(o, ["x"])).status).toBe(422);
    expect((await send(o, "POST", "/api/v1/checkout", { json: { shipments: [1], note: "x" } })).body.errors).toHaveProperty("note");
  });
});

describe("finalize pays exactly one price session (the same shipments as the GET before it)", () => {
  const mismatch = (r: { status: number; body: { errors: Record<string, string[]> } }) => {
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["shipments"]);
    return r.body.errors.shipments![0]!;
  };

  it("refuses a subset of a session (422 keyed shipments), saying to price exactly these shipments first", async () => {
    const { o, ids } = await priced(2);
    const message = mismatch(await finalize(o, ids.slice(0, 1)));
    expect(message).toContain(`shipment ${ids[0]} was last priced in a session of ${ids[0]}, ${ids[1]}`);
    expect(message).toContain(`Price exactly these shipments first (GET /api/v1/checkout?shipments[]=${ids[0]})`);
    expect(await o.control.charges()).toEqual([]);
    expect((await send(o, "GET", `/api/v1/shipments/${ids[0]}`)).body.data.status).toBe(ShipmentStatus.Draft);
  });

  it("refuses ids priced in two different sessions, naming each session", async () => {
    const o = await sb.newOrg();
    const [a, b, c] = await createShipments(o, 3);
    await priceByQuery(o, [a!, b!]);
    await priceByQuery(o, [c!]);
    const message = mismatch(await finalize(o, [b!, c!]));
    expect(message).toContain(`shipment ${b} was last priced in a session of ${a}, ${b}`);
    expect(message).toContain(`shipment ${c} was last priced in a session of ${c}`);
    expect(await o.control.charges()).toEqual([]);
  });

  it("accepts exactly the set of the session, in any order, and charges that session's prices", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 3);
    await priceByQuery(o, ids);
    expect((await finalize(o, [...ids].reverse())).status).toBe(204);
    expect(await o.control.charges()).toMatchObject([{ total: 3 * 4640 }]);
  });

  it("refuses a session one of whose shipments was priced again in a later session", async () => {
    const o = await sb.newOrg();
    const [a, b, c] = await createShipments(o, 3);
    await priceByQuery(o, [a!, b!]);
    await priceByQuery(o, [b!, c!]);
    const message = mismatch(await finalize(o, [a!, b!]));
    expect(message).toContain(`shipment ${b} was last priced in a session of ${b}, ${c}`);
    expect((await finalize(o, [b!, c!])).status).toBe(204);
  });

  it("accepts a shipment updated and then priced again on its own, and the rest once priced again too", async () => {
    const { o, ids } = await priced(2);
    const [a, b] = ids as [number, number];
    await send(o, "PATCH", `/api/v1/shipments/${b}`, { json: shipment({ title: "Changed" }) });
    await priceByQuery(o, [b]);
    mismatch(await finalize(o, [a, b]));
    mismatch(await finalize(o, [a]));
    expect((await finalize(o, [b])).status).toBe(204);
    await priceByQuery(o, [a]);
    expect((await finalize(o, [a])).status).toBe(204);
    expect(await o.control.charges()).toHaveLength(2);
  });

  it("a failed price session (500) prices nothing and replaces no session", async () => {
    const o = await sb.newOrg();
    const [a, b] = await createShipments(o, 2);
    await priceByQuery(o, [a!]);
    await o.control.failPriceSessions(1, 1);
    expect((await priceByQuery(o, [a!, b!])).status).toBe(500);
    expect((await finalize(o, [a!])).status).toBe(204);
  });

  it("checks the session before the payment method: a mismatch is 422 even without one", async () => {
    const { o, ids } = await priced(2);
    await o.control.setPaymentMethod("none");
    mismatch(await finalize(o, ids.slice(1)));
  });
});
