// `list shipments` filters and --max against the sandbox: shipments of mixed statuses over several pages, filtered by
// status name and number, by creation time, by title, with --max, in every format.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";

let sb: TestSandbox;
let org: OrgTarget;
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  // 32 shipments, an hour apart within each group: 7 pages of 5.
  const hour = 3_600_000;
  await org.control.seedShipments({ count: 12, status: 1, title_prefix: "Alpha", created_from: "2026-01-01 00:00:00", created_step_ms: hour });
  await org.control.seedShipments({ count: 9, status: 2, title_prefix: "Beta", created_from: "2026-02-01 00:00:00", created_step_ms: hour });
  await org.control.seedShipments({ count: 6, status: 7, title_prefix: "Gamma", created_from: "2026-03-01 00:00:00", created_step_ms: hour });
  await org.control.seedShipments({ count: 5, status: 1, title_prefix: "Delta", created_from: "2026-04-01 00:00:00", created_step_ms: hour });
});
afterAll(() => sb.close());

interface Listed {
  id: number;
  title: string;
  status: number;
  status_name: string;
  created_at: string;
}

async function listJson(args: string[]): Promise<{ shipments: Listed[]; next_page: number | null; stderr: string }> {
  const r = await runCli(["list", "shipments", "--limit", "5", ...args, "--json"], { sandbox: org });
  expect(r.exitCode, r.stderr).toBe(0);
  return { ...JSON.parse(r.stdout), stderr: r.stderr };
}
const titles = (list: Listed[]) => list.map((s) => s.title);

describe("shipctl list shipments, filtered while walking the pages", () => {
  it("--status by name in any case reads every page and keeps the Drafts", async () => {
    await org.control.clearRequests();
    const r = await listJson(["--status", "draft"]);
    expect(r.shipments).toHaveLength(17);
    expect(new Set(r.shipments.map((s) => s.status_name))).toEqual(new Set(["Draft"]));
    expect(r.next_page).toBeNull();
    expect(r.stderr).toBe("17 of the 32 shipments read (7 pages) match.\n");
    expect(await org.control.requests({ method: "GET", path: "/api/v1/shipments" })).toHaveLength(7);
  });

  it("--status by number, several at once, gives the same as by name", async () => {
    const byNumber = await listJson(["--status", "2", "7"]);
    const byName = await listJson(["--status", "Confirmed,DELIVERED"]);
    expect(titles(byNumber.shipments)).toEqual(titles(byName.shipments));
    expect(byNumber.shipments).toHaveLength(15);
    expect(titles(byNumber.shipments).every((t) => /^(Beta|Gamma) /.test(t))).toBe(true);
  });

  it("an unknown status is exit 2 naming the valid ones, before any request", async () => {
    const fresh = await sb.newOrg();
    const r = await runCli(["list", "shipments", "--status", "Shipping"], { sandbox: fresh });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown status "Shipping"');
    expect(r.stderr).toContain("1 Draft, 2 Confirmed, 3 Pending");
    expect(await fresh.control.requests()).toEqual([]);
  });

  it("--created-after (included) and --created-before (excluded), in UTC or with a zone", async () => {
    const feb = await listJson(["--created-after", "2026-02-01", "--created-before", "2026-03-01"]);
    expect(titles(feb.shipments)).toEqual(Array.from({ length: 9 }, (_, i) => `Beta 0000${i + 1}`));
    // 02:00 at +01:00 is 01:00 UTC: Alpha 2 (01:00) is in, Alpha 3 (02:00) is the excluded edge.
    const edge = await listJson(["--created-after", "2026-01-01T00:30", "--created-before", "2026-01-01T03:00+01:00"]);
    expect(titles(edge.shipments)).toEqual(["Alpha 00002"]);
  });

  it("--title matches part of the title in any case, combined with --status", async () => {
    const r = await listJson(["--title", "ELTA", "--status", "draft"]);
    expect(titles(r.shipments)).toEqual(["Delta 00001", "Delta 00002", "Delta 00003", "Delta 00004", "Delta 00005"]);
  });

  it("--max is a total across pages; the JSON says which page to read to go on", async () => {
    const r = await listJson(["--status", "Confirmed", "--max", "7"]);
    expect(titles(r.shipments)).toEqual(Array.from({ length: 7 }, (_, i) => `Beta 0000${i + 1}`));
    // Beta 1-9 are items 13-21: page 3 holds 11-15, page 5 holds 21-25; the 7th (item 19) is mid-page 4.
    expect(r.next_page).toBe(4);
    expect(r.stderr).toContain("Stopped at --max 7 part way through page 4: a larger --max shows more; --page 5 --limit 5 starts after page 4.");
  });

  it("--format csv and ndjson give the same shipments as --json", async () => {
    const json = await listJson(["--status", "delivered"]);
    const nd = await runCli(["list", "shipments", "--limit", "5", "--status", "delivered", "--format", "ndjson"], { sandbox: org });
    expect(nd.exitCode, nd.stderr).toBe(0);
    const lines = nd.stdout.trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l).title)).toEqual(titles(json.shipments));
    const csv = await runCli(["list", "shipments", "--limit", "5", "--status", "delivered", "--format", "csv"], { sandbox: org });
    expect(csv.exitCode, csv.stderr).toBe(0);
    const rows = csv.stdout.split("\r\n").filter((l) => l !== "");
    expect(rows).toHaveLength(7);
    expect(rows.slice(1).map((l) => l.split(",")[1])).toEqual(titles(json.shipments));
  });
});
