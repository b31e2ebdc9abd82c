// Pagination exactly as api.md shows it, on page 1, a middle page, the last page, an empty organization and a page
// past the end; `limit` 1..50; absolute links built from the Host the client used.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { createShipments, send } from "./support.js";

let sb: TestSandbox;
let org: OrgTarget;
let ids: number[];
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  ids = await createShipments(org, 45);
});
afterAll(() => sb.close());

const base = () => `${sb.url}/api/v1/shipments`;
const idsOf = (page: { data: Array<{ id: number }> }) => page.data.map((s) => s.id);

describe("GET /api/v1/shipments pages (default limit 20, 45 shipments)", () => {
  it("page 1: items 1..20, prev null, next page 2, links without limit when it was not passed", async () => {
    const r = await send(org, "GET", "/api/v1/shipments");
    expect(r.status).toBe(200);
    expect(idsOf(r.body)).toEqual(ids.slice(0, 20));
    expect(r.body.links).toEqual({ first: `${base()}?page=1`, last: null, prev: null, next: `${base()}?page=2` });
    expect(r.body.meta).toEqual({ current_page: 1, from: 1, path: base(), per_page: 20, to: 20 });
  });

  it("a middle page: from 21, to 40 (the spec's example)", async () => {
    const r = await send(org, "GET", "/api/v1/shipments?page=2");
    expect(idsOf(r.body)).toEqual(ids.slice(20, 40));
    expect(r.body.links).toEqual({ first: `${base()}?page=1`, last: null, prev: `${base()}?page=1`, next: `${base()}?page=3` });
    expect(r.body.meta).toEqual({ current_page: 2, from: 21, path: base(), per_page: 20, to: 40 });
  });

  it("the last page: a partial page with next null", async () => {
    const r = await send(org, "GET", "/api/v1/shipments?page=3");
    expect(idsOf(r.body)).toEqual(ids.slice(40));
    expect(r.body.links.next).toBeNull();
    expect(r.body.links.prev).toBe(`${base()}?page=2`);
    expect(r.body.meta).toMatchObject({ current_page: 3, from: 41, to: 45 });
  });

  it("a full last page also has next null", async () => {
    const r = await send(org, "GET", "/api/v1/shipments?page=9&limit=5");
    expect(idsOf(r.body)).toEqual(ids.slice(40, 45));
    expect(r.body.links.next).toBeNull();
  });

  it("a page past the end: data [], from and to null, next null, prev the page before", async () => {
    const r = await send(org, "GET", "/api/v1/shipments?page=4");
    expect(r.body.data).toEqual([]);
    expect(r.body.meta).toEqual({ current_page: 4, from: null, path: base(), per_page: 20, to: null });
    expect(r.body.links).toMatchObject({ prev: `${base()}?page=3`, next: null, last: null });
  });

  it("an organization with no shipments: an empty first page", async () => {
    const empty = await sb.newOrg();
    const r = await send(empty, "GET", "/api/v1/shipments");
    expect(r.body).toEqual({
      data: [],
      links: { first: `${base()}?page=1`, last: null, prev: null, next: null },
      meta: { current_page: 1, from: null, path: base(), per_page: 20, to: null },
    });
  });

  it("following links.next visits every shipment once, in id order", async () => {
    const seen: number[] = [];
    let next: string | null = `${base()}?limit=7`;
    while (next) {
      const url: URL = new URL(next);
      const page = (await send(org, "GET", url.pathname + url.search)).body;
      seen.push(...idsOf(page));
      next = page.links.next;
    }
    expect(seen).toEqual(ids);
  });
});

describe("limit and page parameters", () => {
  it("accepts limit 1 and 50, keeping limit in every link", async () => {
    const one = await send(org, "GET", "/api/v1/shipments?limit=1&page=2");
    expect(idsOf(one.body)).toEqual([ids[1]]);
    expect(one.body.links).toEqual({ first: `${base()}?page=1&limit=1`, last: null, prev: `${base()}?page=1&limit=1`, next: `${base()}?page=3&limit=1` });
    expect(one.body.meta).toMatchObject({ per_page: 1, from: 2, to: 2 });
    const fifty = await send(org, "GET", "/api/v1/shipments?limit=50");
    expect(idsOf(fifty.body)).toEqual(ids);
    expect(fifty.body.meta).toMatchObject({ per_page: 50, from: 1, to: 45 });
    expect(fifty.body.links.next).toBeNull();
  });

  it.each(["0", "51", "-1", "1.5", "abc", ""])("refuses limit=%s with 422 keyed limit", async (limit) => {
    const r = await send(org, "GET", `/api/v1/shipments?limit=${limit}`);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["limit"]);
  });

  it.each(["0", "-2", "2.5", "x"])("refuses page=%s with 422 keyed page", async (page) => {
    const r = await send(org, "GET", `/api/v1/shipments?page=${page}`);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["page"]);
  });

  it("ignores other query parameters", async () => {
    expect((await send(org, "GET", "/api/v1/shipments?sort=desc")).status).toBe(200);
  });

  it("builds links from the Host header the client used", async () => {
    const r = await send(org, "GET", "/api/v1/shipments?limit=2", { headers: { host: "sandbox.test:9999" } });
    expect(r.body.links.next).toBe("http://sandbox.test:9999/api/v1/shipments?page=2&limit=2");
    expect(r.body.meta.path).toBe("http://sandbox.test:9999/api/v1/shipments");
  });
});
