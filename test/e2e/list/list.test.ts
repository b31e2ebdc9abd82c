import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
/** One organization holding 5 shipments (ids in `ids`) and 1 address, shared by the read-only tests. */
let org: OrgTarget;
let ids: number[];
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  ids = await seedShipments(org, 5, await seedAddress(org));
});
afterAll(() => sb.close());

describe("shipctl list shipments", () => {
  it("shows a table with status by name and money in dollars", async () => {
    const r = await runCli(["list", "shipments"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+VALUE\s+SERVICE\s+PRICE\s+CREATED$/);
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(new RegExp(`^\\s*${ids[0]}\\s+Piece 1\\s+Draft\\s+\\$1,000\\.00\\s+1 \\(Standard\\)\\s+not priced\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC$`));
    expect(r.stderr).toBe("");
  });

  it("with --all follows links.next across 3 pages and prints every item in one JSON document", async () => {
    await org.control.clearRequests();
    const r = await runCli(["list", "shipments", "--limit", "2", "--all", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.shipments.map((s: { id: number }) => s.id)).toEqual(ids);
    expect(doc.next_page).toBeNull();
    const pages = await org.control.requests({ method: "GET", path: "/api/v1/shipments" });
    expect(pages.map((p) => new URLSearchParams(p.query).get("page") ?? "1")).toEqual(["1", "2", "3"]);
  });

  it("with --ndjson prints one item per line", async () => {
    const r = await runCli(["list", "shipments", "--limit", "2", "--all", "--ndjson"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(ids);
    expect(lines.map((l) => JSON.parse(l).status_name)).toEqual(ids.map(() => "Draft"));
    const same = await runCli(["list", "shipments", "--limit", "2", "--all", "--format", "ndjson"], { sandbox: org });
    expect(same.stdout).toBe(r.stdout);
  });

  it("without --all prints one page, with the next page in the JSON document and on stderr", async () => {
    const r = await runCli(["list", "shipments", "--limit", "2", "--page", "2", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.shipments.map((s: { id: number }) => s.id)).toEqual(ids.slice(2, 4));
    expect(doc).toMatchObject({ page: 2, per_page: 2, next_page: 3 });
    expect(doc.shipments[0]).toMatchObject({ status: 1, status_name: "Draft" });
    const people = await runCli(["list", "shipments", "--limit", "2"], { sandbox: org });
    expect(people.stderr).toBe("Showing shipments 1-2. Next page: --page 2; every page: --all.\n");
  });

  it("prints no items for a page past the end", async () => {
    const r = await runCli(["list", "shipments", "--page", "9", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ shipments: [], page: 9, per_page: 20, next_page: null });
  });

  it.each([["--limit", "51"], ["--limit", "0"], ["--page", "0"], ["--page", "two"]])(
    "refuses %s %s with exit 2 before sending anything",
    async (flag, value) => {
      const fresh = await sb.newOrg();
      const r = await runCli(["list", "shipments", flag, value], { sandbox: fresh });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(flag);
      expect(await fresh.control.requests()).toEqual([]);
    },
  );

  it("exits 4 for a wrong token and for an organization without subscription", async () => {
    const fresh = await sb.newOrg();
    const wrong = await runCli(["list", "shipments"], { sandbox: { url: fresh.url, token: "wrong" } });
    expect(wrong.exitCode, wrong.stderr).toBe(4);
    await fresh.control.setSubscription(false);
    const unpaid = await runCli(["list", "shipments", "--json"], { sandbox: fresh });
    expect(unpaid.exitCode, unpaid.stderr).toBe(4);
    expect(unpaid.stdout).toBe("");
    expect(unpaid.stderr).toContain("no active subscription");
  });

  it("waits out a 429 with Retry-After and carries on", async () => {
    const fresh = await sb.newOrg();
    await fresh.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "429", retryAfter: 1 });
    const r = await runCli(["list", "shipments", "--json"], { sandbox: fresh });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).shipments).toEqual([]);
    expect(r.stderr).toContain("Listing shipments:");
  });

  it("exits 7 when the service keeps answering 5xx", async () => {
    const fresh = await sb.newOrg();
    await fresh.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "502", count: 20 });
    const r = await runCli(["list", "shipments"], { sandbox: fresh });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stdout).toBe("");
  });
});

describe("shipctl list addresses", () => {
  it("lists the stored addresses with the country by name", async () => {
    const r = await runCli(["list", "addresses"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+LINE 1\s+CITY\s+REGION\s+POST CODE\s+COUNTRY$/);
    expect(lines[1]).toMatch(/Gallery North\s+1 Main Street\s+Seattle\s+WA\s+98101\s+1 \(United States\)$/);
  });

  it("with --all --json reads every page", async () => {
    const fresh = await sb.newOrg();
    const stored = [await seedAddress(fresh), await seedAddress(fresh, { name: "Two" }), await seedAddress(fresh, { name: "Three" })];
    const r = await runCli(["list", "addresses", "--limit", "1", "--all", "--json"], { sandbox: fresh });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).addresses.map((a: { id: number }) => a.id)).toEqual(stored);
  });
});
