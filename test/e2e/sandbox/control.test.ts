// The control surface itself: statuses, clock, payment method, reset, and its validation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { address, createShipments, send, shipment } from "./support.js";

let sb: TestSandbox;
let wall = Date.parse("2025-02-01T00:00:00Z");
beforeAll(async () => {
  sb = await startTestSandbox({ clock: () => new Date(wall) });
});
afterAll(() => sb.close());

describe("GET /_sandbox/tables", () => {
  it("declares the longest apply time: 3000 ms unless the sandbox was started with another", async () => {
    expect(await sb.control.tables()).toMatchObject({ sandbox: true, apply_max_ms: 3000 });
    const own = await startTestSandbox({ applyMaxMs: 250 });
    try {
      expect((await own.control.tables()).apply_max_ms).toBe(250);
    } finally {
      await own.close();
    }
  });
});

describe("POST /_sandbox/shipments/{id}/status", () => {
  it("moves to any status by number or name; Arrived records arrived_at (explicit timestamp, ISO accepted)", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    expect(await o.control.setStatus(id!, "drop-off")).toMatchObject({ status: 9 });
    expect(await o.control.setStatus(id!, 11, "2025-01-15T08:30:00Z")).toMatchObject({ status: 11, arrived_at: "2025-01-15 08:30:00", delivered_at: null });
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).body.data.arrived_at).toBe("2025-01-15 08:30:00");
  });

  it("refuses unknown statuses, bad timestamps, a timestamp for other statuses, and foreign shipments", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    const post = (body: unknown, target = o) => send(target, "POST", `/_sandbox/shipments/${id}/status`, { json: body });
    expect((await post({ status: 13 })).body.errors).toHaveProperty("status");
    expect((await post({ status: "Lost" })).body.errors).toHaveProperty("status");
    expect((await post({ status: "Delivered", at: "yesterday" })).body.errors).toHaveProperty("at");
    expect((await post({ status: "Confirmed", at: "2025-01-01 00:00:00" })).body.errors).toHaveProperty("at");
    expect((await post({ status: 7 }, await sb.newOrg())).status).toBe(404);
  });
});

describe("clock", () => {
  it("each organization has its own clock: frozen, ticking, offset, advanced, reset", async () => {
    const o = await sb.newOrg();
    const other = await sb.newOrg();
    expect((await o.control.setClock("2030-01-01 00:00:00")).now).toBe("2030-01-01 00:00:00");
    wall += 5000;
    expect((await o.control.clock()).now).toBe("2030-01-01 00:00:00");
    expect((await other.control.clock()).now).toBe("2025-02-01 00:00:05");
    expect((await o.control.advanceClock(61_000)).now).toBe("2030-01-01 00:01:01");
    const ticking = await o.control.setClock("2030-06-01 00:00:00", { ticking: true });
    expect(ticking.mode).toBe("real");
    wall += 2000;
    expect((await o.control.clock()).now).toBe("2030-06-01 00:00:02");
    expect((await o.control.offsetClock(-86_400_000)).now).toBe("2025-01-31 00:00:07");
    expect((await o.control.resetClock()).now).toBe("2025-02-01 00:00:07");
  });

  it("stamps created_at with the organization's clock", async () => {
    const o = await sb.newOrg();
    await o.control.setClock("2024-12-09 13:49:57");
    const id = (await send(o, "POST", "/api/v1/addresses", { json: address() })).body.id;
    expect((await send(o, "GET", `/api/v1/addresses/${id}`)).body.data.created_at).toBe("2024-12-09 13:49:57");
  });

  it("stamps the Date header with the organization's clock; real (base) time without a known token", async () => {
    const o = await sb.newOrg();
    await o.control.setClock("2024-12-09 13:49:57");
    const created = await send(o, "POST", "/api/v1/addresses", { json: address() });
    expect(created.headers["date"]).toBe("Mon, 09 Dec 2024 13:49:57 GMT");
    expect((await send(o, "GET", "/api/v1/addresses")).headers["date"]).toBe("Mon, 09 Dec 2024 13:49:57 GMT");
    const anonymous = await send(o, "GET", "/api/v1/addresses", { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["date"]).toBe(new Date(wall).toUTCString());
  });

  it("needs exactly one way of setting it", async () => {
    const o = await sb.newOrg();
    const r = await send(o, "PUT", "/_sandbox/clock", { json: { at: "2030-01-01 00:00:00", offset_ms: 5 } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ clock: ["The clock field must be set by exactly one of at, offset_ms or advance_ms (created_at_lag_ms may come with it)."] });
    expect((await send(o, "PUT", "/_sandbox/clock", { json: {} })).body.errors).toHaveProperty("clock");
  });

  it("refuses to move past the years its timestamps can write (0000-9999), and keeps the clock it had", async () => {
    const o = await sb.newOrg();
    await o.control.setClock("2030-01-01 00:00:00");
    // `shipctl sandbox clock +99999999d`: past Date's range, every request after it threw and the sandbox died.
    const tooFar = [{ advance_ms: 99_999_999 * 86_400_000 }, { advance_ms: -(10_000 * 365 * 86_400_000) }, { offset_ms: 8e15 }];
    for (const json of tooFar) {
      const r = await send(o, "PUT", "/_sandbox/clock", { json });
      expect(r.status).toBe(422);
      expect(r.body.errors.clock[0]).toContain("years 0000 to 9999");
    }
    expect((await o.control.clock()).now).toBe("2030-01-01 00:00:00");
    expect((await send(o, "GET", "/api/v1/shipments")).status).toBe(200);
  });
});

describe("created_at lag", () => {
  it("stamps created_at and updated_at behind the Date header: 3 minutes, then 5 hours", async () => {
    const o = await sb.newOrg();
    await o.control.setClock("2025-03-01 12:00:00");
    expect(await o.control.lagCreatedAt(180_000)).toMatchObject({ now: "2025-03-01 12:00:00", mode: "frozen", created_at_lag_ms: 180_000 });
    const created = await send(o, "POST", "/api/v1/shipments", { json: { shipments: [shipment()] } });
    expect(created.headers["date"]).toBe("Sat, 01 Mar 2025 12:00:00 GMT");
    const id = created.body.shipments[0].id as number;
    const read = await send(o, "GET", `/api/v1/shipments/${id}`);
    expect(read.body.data).toMatchObject({ created_at: "2025-03-01 11:57:00", updated_at: "2025-03-01 11:57:00" });
    expect(read.headers["date"]).toBe("Sat, 01 Mar 2025 12:00:00 GMT");

    await o.control.lagCreatedAt(5 * 3_600_000);
    const addressId = (await send(o, "POST", "/api/v1/addresses", { json: address() })).body.id;
    expect((await send(o, "GET", `/api/v1/addresses/${addressId}`)).body.data).toMatchObject({ created_at: "2025-03-01 07:00:00", updated_at: "2025-03-01 07:00:00" });
    await o.control.advanceClock(60_000);
    expect((await send(o, "PATCH", `/api/v1/shipments/${id}`, { json: shipment({ title: "Later" }) })).status).toBe(204);
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).body.data).toMatchObject({ created_at: "2025-03-01 11:57:00", updated_at: "2025-03-01 07:01:00" });
    // Event times are the service's own record of when things happened, not a row stamp: never lagged.
    expect(await o.control.setStatus(id, "Delivered")).toMatchObject({ delivered_at: "2025-03-01 12:01:00", updated_at: "2025-03-01 07:01:00" });
  });

  it("comes with a clock setting or alone, stays while the clock moves, and ends with DELETE or reset", async () => {
    const o = await sb.newOrg();
    expect(await send(o, "PUT", "/_sandbox/clock", { json: { at: "2025-03-01 12:00:00", created_at_lag_ms: -60_000 } })).toMatchObject({
      status: 200,
      body: { now: "2025-03-01 12:00:00", created_at_lag_ms: -60_000 },
    });
    expect((await o.control.offsetClock(5000)).created_at_lag_ms).toBe(-60_000);
    expect((await o.control.resetClock()).created_at_lag_ms).toBe(0);
    await o.control.lagCreatedAt(1000);
    await o.control.reset();
    expect((await o.control.clock()).created_at_lag_ms).toBe(0);
  });

  it("refuses a lag that is not a whole number within 24 hours", async () => {
    const o = await sb.newOrg();
    for (const lag of [1.5, 86_400_001, -86_400_001, "5h"]) {
      const r = await send(o, "PUT", "/_sandbox/clock", { json: { created_at_lag_ms: lag } });
      expect(r.status, String(lag)).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual(["created_at_lag_ms"]);
    }
    expect((await o.control.lagCreatedAt(86_400_000)).created_at_lag_ms).toBe(86_400_000);
  });
});

describe("payment method, subscription and switches", () => {
  it("shows and sets the payment method", async () => {
    const o = await sb.newOrg();
    expect(await o.control.setPaymentMethod("failing", 3)).toEqual({ state: "failing", remaining: 3 });
    expect((await o.control.organization()).payment_method).toEqual({ state: "failing", remaining: 3 });
    const bad = await send(o, "PUT", "/_sandbox/payment-method", { json: { state: "valid", count: 2 } });
    expect(bad.body.errors).toHaveProperty("count");
    expect((await send(o, "PUT", "/_sandbox/payment-method", { json: { state: "gold" } })).body.errors).toHaveProperty("state");
  });

  it("summarises the organization", async () => {
    const o = await sb.newOrg();
    await createShipments(o, 2);
    await o.control.rateLimitVerifications(4);
    await o.control.failPriceSessions(1, 1);
    expect(await o.control.organization()).toMatchObject({
      subscription: true,
      payment_method: { state: "valid" },
      verify_rate_limited: 4,
      price_failures: { count: 1, status: 1 },
      shipments: 2,
      addresses: 0,
      faults: 0,
    });
  });
});

describe("POST /_sandbox/reset", () => {
  it("empties the organization and restores every switch, keeping its token; others are untouched", async () => {
    const o = await sb.newOrg();
    const keep = await sb.newOrg();
    const [kept] = await createShipments(keep, 1);
    await createShipments(o, 3);
    await o.control.setPaymentMethod("none");
    await o.control.setSubscription(false);
    await o.control.fault({ path: "/**", kind: "500" });
    await o.control.setClock("2030-01-01 00:00:00");
    await o.control.reset();
    expect(await o.control.organization()).toMatchObject({ subscription: true, payment_method: { state: "valid" }, shipments: 0, faults: 0, clock: { mode: "real" } });
    expect((await send(o, "GET", "/api/v1/shipments")).body.data).toEqual([]);
    expect((await send(keep, "GET", `/api/v1/shipments/${kept}`)).status).toBe(200);
  });
});
