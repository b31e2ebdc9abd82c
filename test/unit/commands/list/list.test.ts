import { describe, expect, it } from "vitest";
import { parseList, runList } from "../../../../src/commands/list/list-kind.js";
import type { Deps } from "../../../../src/deps.js";
import type { PageOf, StoredShipment } from "../../../../src/contract/index.js";
import { UnavailableError, UsageError } from "../../../../src/errors.js";
import { GALLERY } from "../../../helpers/gallery.js";
import { testDeps } from "../../../helpers/deps.js";
import { httpStubs, reply } from "../../../helpers/http-stubs.js";

const BASE = "http://127.0.0.1:9/api/v1/shipments";
const LIST = "GET /api/v1/shipments";

function shipment(id: number): StoredShipment {
  return { id, title: `Piece ${id}`, status: 1, value: 1000, service: 1, price: id % 2 ? null : 4500, created_at: "2025-01-01 00:00:00" };
}

/** Page n (1-based) of `total` shipments, `size` a page, shaped as the contract says. */
function page(n: number, size: number, total: number): PageOf<StoredShipment> {
  const from = (n - 1) * size + 1;
  const to = Math.min(n * size, total);
  const data = from > total ? [] : Array.from({ length: to - from + 1 }, (_, i) => shipment(from + i));
  return {
    data,
    links: {
      first: `${BASE}?page=1&limit=${size}`,
      last: null,
      prev: n > 1 ? `${BASE}?page=${n - 1}&limit=${size}` : null,
      next: to < total ? `${BASE}?page=${n + 1}&limit=${size}` : null,
    },
    meta: { current_page: n, from: data.length ? from : null, path: BASE, per_page: size, to: data.length ? to : null },
  };
}

/** The shipments list, `total` shipments `size` a page: any page, as often as asked. */
function pagesOf(size: number, total: number) {
  return httpStubs().on(LIST, (r) => reply.json(200, page(Number(r.query.get("page") ?? 1), size, total)), { times: "any" });
}

/** The verb as the command line runs it: its flags parsed, then its run. */
const runFor = (kind: "shipments" | "addresses") => async (deps: Deps, _args: string[], flags: Parameters<typeof parseList>[1]) => runList(parseList(kind, flags), deps);
const listShipments = runFor("shipments");

describe("list shipments", () => {
  it("shows one page as a table and says how to get more", async () => {
    const t = testDeps({ http: pagesOf(2, 5) });
    await listShipments(t.deps, [], {});
    const lines = t.io.stdout().trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+VALUE\s+SERVICE\s+PRICE\s+CREATED$/);
    expect(lines[1]).toMatch(/^\s*1\s+Piece 1\s+Draft\s+\$1,000\.00\s+1 \(Standard\)\s+not priced\s+2025-01-01 00:00:00 UTC$/);
    expect(lines[2]).toMatch(/\$45\.00/);
    expect(lines).toHaveLength(3);
    expect(t.io.stderr()).toBe("Showing shipments 1-2. Next page: --page 2; every page: --all.\n");
  });

  it("passes --page and --limit to the service", async () => {
    const t = testDeps({ json: true, http: pagesOf(2, 5) });
    await listShipments(t.deps, [], { page: "2", limit: "2" });
    expect(t.http.requests.map((r) => r.query.toString())).toEqual(["page=2&limit=2"]);
    const doc = JSON.parse(t.io.stdout());
    expect(doc.shipments.map((s: StoredShipment) => s.id)).toEqual([3, 4]);
    // Where to go on is in the document, not only on stderr (issue 12, point 9).
    expect(doc).toMatchObject({ page: 2, per_page: 2, next_page: 3 });
    expect(doc.shipments[0]).toMatchObject({ status: 1, status_name: "Draft" });
    expect(Object.keys(doc.shipments[0]).slice(0, 4)).toEqual(["id", "title", "status", "status_name"]);
  });

  it("with --all --json follows links.next to the end and prints one document", async () => {
    const t = testDeps({ json: true, http: pagesOf(2, 5) });
    await listShipments(t.deps, [], { all: true, limit: "2" });
    const doc = JSON.parse(t.io.stdout());
    expect(doc.shipments.map((s: StoredShipment) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(doc.next_page).toBeNull();
    expect(t.http.requests.map((r) => r.query.toString())).toEqual(["page=1&limit=2", "page=2&limit=2", "page=3&limit=2"]);
    expect(t.io.stderr()).toBe("");
  });

  it("with --ndjson prints one item per line", async () => {
    const t = testDeps({ http: pagesOf(2, 3) });
    await listShipments(t.deps, [], { all: true, ndjson: true });
    const lines = t.io.stdout().trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l).id)).toEqual([1, 2, 3]);
    expect(JSON.parse(lines[0]!).status_name).toBe("Draft");
  });

  it("prints an empty list with --json, and talks on stderr without", async () => {
    const json = testDeps({ json: true, http: pagesOf(2, 0) });
    await listShipments(json.deps, [], {});
    expect(JSON.parse(json.io.stdout())).toEqual({ shipments: [], page: 1, per_page: 2, next_page: null });
    const people = testDeps({ http: pagesOf(2, 0) });
    await listShipments(people.deps, [], {});
    expect(people.io.stdout()).toBe("");
    expect(people.io.stderr()).toBe("No shipments.\n");
  });

  it("refuses a bad --limit, and --json with --ndjson, before any request", async () => {
    const t = testDeps({ json: true });
    await expect(listShipments(t.deps, [], { limit: "51" })).rejects.toBeInstanceOf(UsageError);
    await expect(listShipments(t.deps, [], { ndjson: true })).rejects.toThrow("--json and --format ndjson cannot be used together");
    await expect(listShipments(t.deps, [], { format: "csv" })).rejects.toThrow("--json and --format csv cannot be used together");
    expect(t.http.requests).toEqual([]);
  });

  it("stops when the service's next link loops", async () => {
    const looping = page(1, 1, 3);
    const t = testDeps({
      json: true,
      http: httpStubs()
        .on(LIST, reply.json(200, looping))
        .on(LIST, reply.json(200, { ...looping, links: { ...looping.links, next: `${BASE}?page=2` } }), { times: "any" }),
    });
    await expect(listShipments(t.deps, [], { all: true })).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe("list addresses", () => {
  it("shows the address columns with the country by name", async () => {
    const address = { id: 3, ...GALLERY };
    const t = testDeps({
      http: httpStubs().on(
        "GET /api/v1/addresses",
        reply.json(200, {
          data: [address],
          links: { first: "x", last: null, prev: null, next: null },
          meta: { current_page: 1, from: 1, path: "x", per_page: 20, to: 1 },
        }),
      ),
    });
    await runFor("addresses")(t.deps, [], {});
    const lines = t.io.stdout().trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+LINE 1\s+CITY\s+REGION\s+POST CODE\s+COUNTRY$/);
    expect(lines[1]).toMatch(/^\s*3\s+Gallery North\s+1 Main Street\s+Seattle\s+WA\s+98101\s+1 \(United States\)$/);
    expect(t.io.stderr()).toBe("");
  });
});
