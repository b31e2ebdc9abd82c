// `list shipments` filters, --max and the CSV format, on pages a fake service serves.
import { describe, expect, it } from "vitest";
import { parseList, runList } from "../../../../src/commands/list/list-kind.js";
import type { PageOf, StoredShipment } from "../../../../src/contract/index.js";
import { testDeps, type TestDeps } from "../../../helpers/deps.js";
import { httpStubs, reply } from "../../../helpers/http-stubs.js";

const BASE = "http://127.0.0.1:9/api/v1/shipments";
const STATUSES = [1, 2, 1, 7, 1, 2, 1];

/** Shipment n: status from STATUSES, created on day n of March 2026, titled "Piece n" ("Blue Piece" when even). */
function shipment(n: number): StoredShipment {
  const day = String(n).padStart(2, "0");
  return { id: n, title: n % 2 ? `Piece ${n}` : `Blue Piece ${n}`, status: STATUSES[n - 1]!, value: 1000, length: 30, height: 24, depth: 3, service: 1, created_at: `2026-03-${day} 12:00:00` };
}

function page(n: number, size: number): PageOf<StoredShipment> {
  const total = STATUSES.length;
  const from = (n - 1) * size + 1;
  const to = Math.min(n * size, total);
  const data = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => shipment(from + i));
  return {
    data,
    links: { first: `${BASE}?page=1`, last: null, prev: null, next: to < total ? `${BASE}?page=${n + 1}&limit=${size}` : null },
    meta: { current_page: n, from: data.length ? from : null, path: BASE, per_page: size, to: data.length ? to : null },
  };
}

const LIST = "GET /api/v1/shipments";
/** Every page of the shipments list, as often as asked. */
const pages = () => httpStubs().on(LIST, (r) => reply.json(200, page(Number(r.query.get("page") ?? 1), Number(r.query.get("limit") ?? 3))), { times: "any" });
/** The pages read after the first (those a links.next led to). */
const nextPages = (t: TestDeps) => t.http.requests.slice(1);

async function list(flags: Parameters<typeof parseList>[1], json = true) {
  const t = testDeps({ json, http: pages() });
  await runList(parseList("shipments", flags), t.deps);
  return { doc: json ? JSON.parse(t.io.stdout()) : undefined, stdout: t.io.stdout(), stderr: t.io.stderr(), t };
}
const ids = (doc: { shipments: StoredShipment[] }) => doc.shipments.map((s) => s.id);

describe("list shipments filters, walked across pages", () => {
  it("--status by name or number reads every page (the service filters nothing) and keeps the matches", async () => {
    const byName = await list({ status: ["Draft"] });
    expect(ids(byName.doc)).toEqual([1, 3, 5, 7]);
    expect(nextPages(byName.t)).toHaveLength(2);
    expect(byName.doc.next_page).toBeNull();
    expect(byName.stderr).toBe("4 of the 7 shipments read (3 pages) match.\n");
    expect(ids((await list({ status: ["2", "delivered"] })).doc)).toEqual([2, 4, 6]);
  });

  it("--created-after includes its moment, --created-before excludes it", async () => {
    expect(ids((await list({ createdAfter: "2026-03-03T12:00", createdBefore: "2026-03-05T12:00:00Z" })).doc)).toEqual([3, 4]);
    expect(ids((await list({ createdBefore: "2026-03-03" })).doc)).toEqual([1, 2]);
  });

  it("--title matches a substring in any case", async () => {
    expect(ids((await list({ title: "blue" })).doc)).toEqual([2, 4, 6]);
  });

  it("--max stops the walk; a page cut short is the next page to read again", async () => {
    const cut = await list({ status: ["draft"], max: "1" });
    expect(ids(cut.doc)).toEqual([1]);
    expect(cut.doc.next_page).toBe(1);
    expect(nextPages(cut.t)).toHaveLength(0);
    // Not "more may follow from --page 1" (issue 20): --page 1 with the same --max prints the same items again.
    expect(cut.stderr).toContain("Stopped at --max 1 part way through page 1: a larger --max shows more; --page 2 starts after page 1.\n");
    const pageEnd = await list({ status: ["draft"], max: "2" });
    expect(ids(pageEnd.doc)).toEqual([1, 3]);
    expect(pageEnd.doc.next_page).toBe(2);
    const whole = await list({ max: "3" });
    expect(ids(whole.doc)).toEqual([1, 2, 3]);
    expect(whole.doc.next_page).toBe(2);
    expect(whole.stderr).toBe("Stopped at --max 3; more may follow from --page 2.\n");
    const beyond = await list({ max: "50" });
    expect(ids(beyond.doc)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(beyond.doc.next_page).toBeNull();
  });

  it("--format csv streams a header then one line a match; nothing matched still gives the header", async () => {
    const csv = await list({ status: ["delivered"], format: "csv", delimiter: ";" }, false);
    const lines = csv.stdout.split("\r\n");
    expect(lines[0]!.startsWith("\ufeffshipment_id;title;value;")).toBe(true);
    expect(lines[1]!.startsWith("4;Blue Piece 4;1000;30;24;3;1;")).toBe(true);
    expect(lines.slice(2)).toEqual([""]);
    const none = await list({ title: "nothing like it", format: "csv" }, false);
    expect(none.stdout.split("\r\n")).toHaveLength(2);
    expect(none.stderr).toBe("0 of the 7 shipments read (3 pages) match.\n");
  });
});
