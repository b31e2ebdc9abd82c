// PUT /_sandbox/listing: the order of GET /api/v1/shipments and GET /api/v1/addresses (asc by default, desc, shuffled).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { address, createShipments, send } from "./support.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Every id of a paginated list, following links.next from page 1. */
async function walk(o: OrgTarget, path: string, limit: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const r = await send(o, "GET", `${path}?page=${page}&limit=${limit}`);
    expect(r.status).toBe(200);
    ids.push(...(r.body.data as Array<{ id: number }>).map((item) => item.id));
    if (r.body.links.next === null) return ids;
  }
}

const setOrder = (o: OrgTarget, order: unknown) => send(o, "PUT", "/_sandbox/listing", { json: { order } });
const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe("PUT /_sandbox/listing", () => {
  it("asc by default; desc lists newest first, page by page, shipments and addresses alike", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 12);
    expect(await o.control.listOrder()).toEqual({ order: "asc" });
    expect(await walk(o, "/api/v1/shipments", 5)).toEqual(ids);

    expect(await setOrder(o, "desc")).toMatchObject({ status: 200, body: { order: "desc" } });
    expect(await o.control.listOrder()).toEqual({ order: "desc" });
    expect(await walk(o, "/api/v1/shipments", 5)).toEqual([...ids].reverse());
    const page3 = await send(o, "GET", "/api/v1/shipments?page=3&limit=5");
    expect(page3.body.meta).toMatchObject({ from: 11, to: 12 });
    expect(page3.body.links.next).toBeNull();

    const addressIds = [];
    for (let i = 0; i < 3; i++) addressIds.push((await send(o, "POST", "/api/v1/addresses", { json: address() })).body.id as number);
    expect(await walk(o, "/api/v1/addresses", 2)).toEqual(addressIds.reverse());
  });

  it("shuffled: every record once, in no order either way, and in the same order on every read", async () => {
    const o = await sb.newOrg();
    const ids = await createShipments(o, 23);
    await o.control.setListOrder("shuffled");
    const first = await walk(o, "/api/v1/shipments", 4);
    expect(ascending(first)).toEqual(ids);
    expect(first).not.toEqual(ids);
    expect(first).not.toEqual([...ids].reverse());
    expect(await walk(o, "/api/v1/shipments", 50)).toEqual(first);
  });

  it("is per organization, shown in the summary, and back to asc after a reset", async () => {
    const o = await sb.newOrg();
    const other = await sb.newOrg();
    const ids = await createShipments(o, 3);
    const otherIds = await createShipments(other, 3);
    await o.control.setListOrder("desc");
    expect(await walk(other, "/api/v1/shipments", 50)).toEqual(otherIds);
    expect((await o.control.organization()).listing).toBe("desc");
    expect(await walk(o, "/api/v1/shipments", 50)).toEqual([...ids].reverse());
    await o.control.reset();
    expect(await o.control.listOrder()).toEqual({ order: "asc" });
  });

  it("refuses another order, or another key, with 422", async () => {
    const o = await sb.newOrg();
    const r = await setOrder(o, "random");
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ order: ["The order field must be one of asc, desc, shuffled."] });
    expect((await send(o, "PUT", "/_sandbox/listing", { json: { order: "asc", by: "title" } })).body.errors).toHaveProperty("by");
  });
});
