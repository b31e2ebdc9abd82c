// POST /_sandbox/shipments/seed: many valid shipments in one call, with ascending ids and created_at in the past.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { send } from "./support.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("POST /_sandbox/shipments/seed", () => {
  it("by default: Drafts titled Seed 00001..., consecutive ids, the last made now, one a second before it", async () => {
    const o = await sb.newOrg();
    await o.control.setClock("2025-06-01 12:00:00");
    const seeded = await o.control.seedShipments({ count: 5 });
    expect(seeded).toEqual({
      count: 5,
      first_id: seeded.first_id,
      last_id: seeded.first_id + 4,
      first_created_at: "2025-06-01 11:59:56",
      last_created_at: "2025-06-01 12:00:00",
    });
    const listed = (await send(o, "GET", "/api/v1/shipments")).body.data;
    expect(listed.map((s: { id: number; title: string; status: number; created_at: string }) => [s.id, s.title, s.status, s.created_at])).toEqual([
      [seeded.first_id, "Seed 00001", 1, "2025-06-01 11:59:56"],
      [seeded.first_id + 1, "Seed 00002", 1, "2025-06-01 11:59:57"],
      [seeded.first_id + 2, "Seed 00003", 1, "2025-06-01 11:59:58"],
      [seeded.first_id + 3, "Seed 00004", 1, "2025-06-01 11:59:59"],
      [seeded.first_id + 4, "Seed 00005", 1, "2025-06-01 12:00:00"],
    ]);
  });

  it("takes the first created_at, the step, a title prefix and a status", async () => {
    const o = await sb.newOrg();
    await o.control.setClock("2025-06-01 12:00:00");
    const seeded = await o.control.seedShipments({ count: 3, created_from: "2024-01-01T00:00:00Z", created_step_ms: 90_000, title_prefix: "Crate", status: "Delivered" });
    expect(seeded).toMatchObject({ first_created_at: "2024-01-01 00:00:00", last_created_at: "2024-01-01 00:03:00" });
    const last = (await send(o, "GET", `/api/v1/shipments/${seeded.last_id}`)).body.data;
    expect(last).toMatchObject({ title: "Crate 00003", status: 7, created_at: "2024-01-01 00:03:00", delivered_at: "2025-06-01 12:00:00" });
    const same = await o.control.seedShipments({ count: 2, created_from: "2024-01-01 00:00:00", created_step_ms: 0 });
    expect(same).toMatchObject({ first_created_at: "2024-01-01 00:00:00", last_created_at: "2024-01-01 00:00:00" });
  });

  it("ends at the organization's stamp: its created_at lag applies by default", async () => {
    const o = await sb.newOrg();
    await send(o, "PUT", "/_sandbox/clock", { json: { at: "2025-06-01 12:00:00", created_at_lag_ms: 5 * 3_600_000 } });
    expect(await o.control.seedShipments({ count: 2 })).toMatchObject({ first_created_at: "2025-06-01 06:59:59", last_created_at: "2025-06-01 07:00:00" });
  });

  it("makes shipments the contract accepts: updated with their own fields, verified, priced", async () => {
    const o = await sb.newOrg();
    const { first_id: id } = await o.control.seedShipments({ count: 1 });
    const read = (await send(o, "GET", `/api/v1/shipments/${id}`)).body.data;
    const side = ({ id: _id, line_2: _line2, ...fields }: Record<string, unknown>) => fields;
    const own = {
      title: read.title,
      value: read.value,
      length: read.length,
      height: read.height,
      depth: read.depth,
      service: read.service,
      fulfillment_address: side(read.fulfillment_address),
      destination_address: side(read.destination_address),
    };
    expect((await send(o, "PATCH", `/api/v1/shipments/${id}`, { json: own })).status).toBe(204);
    expect((await send(o, "POST", "/api/v1/addresses/verify", { json: side(read.fulfillment_address) })).status).toBe(200);
    expect((await send(o, "GET", `/api/v1/checkout?shipments[]=${id}`)).body).toEqual({ shipments: { [id]: 4640 }, total: 4640 });
  });

  it("50,000 in one organization: the last page, desc, and the summary see every one; reset empties it", async () => {
    const o = await sb.newOrg();
    const seeded = await o.control.seedShipments({ count: 50_000 });
    expect(seeded.last_id - seeded.first_id).toBe(49_999);
    const last = await send(o, "GET", "/api/v1/shipments?page=1000&limit=50");
    expect(last.body.data.map((s: { id: number }) => s.id)).toEqual(range(seeded.last_id - 49, seeded.last_id));
    expect(last.body.data[49].title).toBe("Seed 50000");
    expect(last.body.links.next).toBeNull();
    expect((await send(o, "GET", "/api/v1/shipments?page=1001&limit=50")).body.data).toEqual([]);
    await o.control.setListOrder("desc");
    const newest = await send(o, "GET", "/api/v1/shipments?page=1&limit=3");
    expect(newest.body.data.map((s: { id: number }) => s.id)).toEqual([seeded.last_id, seeded.last_id - 1, seeded.last_id - 2]);
    expect((await o.control.organization()).shipments).toBe(50_000);
    await o.control.reset();
    expect((await o.control.organization()).shipments).toBe(0);
  });

  it("takes up to 100,000, titled with as many digits as needed", async () => {
    const o = await sb.newOrg();
    const seeded = await o.control.seedShipments({ count: 100_000 });
    expect((await send(o, "GET", `/api/v1/shipments/${seeded.last_id}`)).body.data.title).toBe("Seed 100000");
    expect((await send(o, "GET", `/api/v1/shipments/${seeded.first_id}`)).body.data.title).toBe("Seed 000001");
    await o.control.reset();
  });

  it("refuses bad counts, prefixes, timestamps, statuses and unknown keys with 422 naming each", async () => {
    const o = await sb.newOrg();
    const seed = (json: unknown) => send(o, "POST", "/_sandbox/shipments/seed", { json });
    for (const count of [0, 100_001, 1.5, "10"]) expect(Object.keys((await seed({ count })).body.errors), String(count)).toEqual(["count"]);
    expect(Object.keys((await seed({ count: 1, title_prefix: " Seed" })).body.errors)).toEqual(["title_prefix"]);
    expect(Object.keys((await seed({ count: 1, title_prefix: "x".repeat(44) })).body.errors)).toEqual(["title_prefix"]);
    expect(Object.keys((await seed({ count: 1, created_step_ms: -1 })).body.errors)).toEqual(["created_step_ms"]);
    expect((await seed({ count: 1, created_from: "last week" })).body.errors).toHaveProperty("created_from");
    expect((await seed({ count: 2, created_from: "9999-12-31 23:59:59" })).body.errors).toHaveProperty("created_from");
    expect((await seed({ count: 1, status: "Lost" })).body.errors).toHaveProperty("status");
    expect((await seed({ count: 1, colour: "red" })).body.errors).toHaveProperty("colour");
    expect((await o.control.organization()).shipments).toBe(0);
  });
});
