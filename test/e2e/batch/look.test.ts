// The look before a create (shipments/look/): two machines (two config, state and cache folders) against one
// organization, one after the other, each with its own copy of a sheet. Without the look the second machine
// created every row again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows } from "../../../fixtures/csv/generate.mjs";
import { rowsFile, shipmentTitles, writeRows } from "./helpers.js";
import { GALLERY, seedAddress } from "../../helpers/seed.js";
import { startMcp } from "../mcp/mcp-client.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface Doc {
  created: Array<{ row?: number; item?: number; shipment_id: number }>;
  matched: Array<{ row?: number; item?: number; shipment_id: number; error: string }>;
  counts: Record<string, number>;
}

const POSTS = { method: "POST", path: "/api/v1/shipments" };
const posts = async (org: OrgTarget) => (await org.control.requests(POSTS)).length;

/** One machine: its own config (and so state and cache) folder. */
const machine = () => tempDir("shipctl-machine-");

/** The same sheet in another folder, as a colleague's copy of it. */
function copyOf(path: string): string {
  const copy = join(tempDir("shipctl-copy-"), "sheet.csv");
  copyFileSync(path, copy);
  return copy;
}

async function total(org: OrgTarget): Promise<number> {
  return [...(await shipmentTitles(org)).values()].reduce((a, b) => a + b, 0);
}

describe("the look before a create: the same sheet from two machines, one after the other", () => {
  it("the second machine sends nothing, names each match, reports it matched (exit 0); --force-new sends", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(4, { seed: 23, titlePrefix: "Look" });
    const a = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org, configDir: machine() });
    expect(a.exitCode, a.stderr).toBe(0);
    const ids = (JSON.parse(a.stdout) as Doc).created.map((c) => c.shipment_id);

    const copy = copyOf(path);
    const results = join(tempDir(), "results.csv");
    const b = await runCli(["shipment", "create", "--csv", copy, "--json", "--results", results], { sandbox: org, configDir: machine() });
    expect(b.exitCode, b.stderr).toBe(0);
    expect(await posts(org)).toBe(1);
    const doc = JSON.parse(b.stdout) as Doc;
    expect(doc.created).toEqual([]);
    expect(doc.matched.map((m) => m.shipment_id)).toEqual(ids);
    expect(doc.counts).toMatchObject({ rows: 4, created: 0, matched: 4 });
    expect(b.stderr).toMatch(new RegExp(`row 2 matches shipment ${ids[0]}, created \\d+ s ago, not by this machine`));
    expect(b.stderr).toContain(`row 5 matches shipment ${ids[3]}`);
    const lines = readFileSync(results, "utf8").trim().split("\r\n");
    expect(lines.slice(1).every((l) => l.includes(",matched,"))).toBe(true);

    const forced = await runCli(["shipment", "create", "--csv", copy, "--force-new", "--json"], { sandbox: org, configDir: machine() });
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect((JSON.parse(forced.stdout) as Doc).counts).toMatchObject({ created: 4, matched: 0 });
    expect(await total(org)).toBe(8);
  });

  it("n identical rows against m matching shipments: the first m are matches, the rest are sent", async () => {
    const org = await sb.newOrg();
    // No reference: identical rows, told apart by their place among their like.
    const [{ reference: _reference, ...row }] = shipmentRows(1, { seed: 5, titlePrefix: "Twin" }) as [Record<string, string>];
    const a = await runCli(["shipment", "create", "--csv", writeRows([row, row]), "--json"], { sandbox: org, configDir: machine() });
    expect(a.exitCode, a.stderr).toBe(0);
    const b = await runCli(["shipment", "create", "--csv", writeRows([row, row, row]), "--json"], { sandbox: org, configDir: machine() });
    expect(b.exitCode, b.stderr).toBe(0);
    const doc = JSON.parse(b.stdout) as Doc;
    expect(doc.matched.map((m) => m.row)).toEqual([2, 3]);
    expect(doc.created.map((c) => c.row)).toEqual([4]);
    expect(await total(org)).toBe(3);
  });

  it("shipments created before the window are no matches; SHIPCTL_LOOK_DAYS or config set lookDays widens it", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(2, { seed: 8, titlePrefix: "Old" });
    // Created eight days ago on the service's clock.
    await org.control.offsetClock(-8 * 86_400_000);
    const a = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir: machine() });
    expect(a.exitCode, a.stderr).toBe(0);
    await org.control.resetClock();

    const wide = await runCli(["shipment", "create", "--csv", copyOf(path), "--json", "--dry-run"], { sandbox: org, configDir: machine(), env: { SHIPCTL_LOOK_DAYS: "9" } });
    expect(wide.exitCode, wide.stderr).toBe(0);
    expect((JSON.parse(wide.stdout) as { matched: unknown[] }).matched).toHaveLength(2);
    // The profile's setting says the same.
    const profiled = machine();
    const set = await runCli(["config", "set", "lookDays", "9"], { configDir: profiled, env: { SHIPCTL_PROFILE: "default" } });
    expect(set.exitCode, set.stderr).toBe(0);
    const byProfile = await runCli(["shipment", "create", "--csv", copyOf(path), "--json", "--dry-run"], { sandbox: org, configDir: profiled });
    expect((JSON.parse(byProfile.stdout) as { matched: unknown[] }).matched).toHaveLength(2);

    const b = await runCli(["shipment", "create", "--csv", copyOf(path), "--json"], { sandbox: org, configDir: machine() });
    expect(b.exitCode, b.stderr).toBe(0);
    expect((JSON.parse(b.stdout) as Doc).counts).toMatchObject({ created: 2, matched: 0 });
    expect(await total(org)).toBe(4);
  });

  it("--dry-run says what it would skip, and sends nothing", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(3, { seed: 31, titlePrefix: "Dry" });
    await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir: machine() });
    const b = await runCli(["shipment", "create", "--csv", copyOf(path), "--dry-run"], { sandbox: org, configDir: machine() });
    expect(b.exitCode, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/would skip: matches shipment \d+, created/);
    expect(b.stderr).toMatch(/row 2 matches shipment \d+, created \d+ s ago, not by this machine: it would not be sent/);
    expect(b.stderr).toContain("Dry run: nothing to send: 3 rows would be skipped: they match a recent shipment another machine created");
    expect(await posts(org)).toBe(1);
  });

  it("a list in no order: said once, the look skipped, the rows sent", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(4, { seed: 41, titlePrefix: "Mixed" });
    await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir: machine() });
    await org.control.setListOrder("shuffled");
    await org.control.clearRequests();
    const b = await runCli(["shipment", "create", "--csv", copyOf(path), "--json"], { sandbox: org, configDir: machine() });
    expect(b.exitCode, b.stderr).toBe(0);
    expect(b.stderr.match(/lists shipments in no order/g)).toHaveLength(1);
    expect((JSON.parse(b.stdout) as Doc).counts).toMatchObject({ created: 4 });
    expect(await org.control.requests({ method: "GET", path: "/api/v1/shipments" })).toHaveLength(1);
  });

  it("the list unreadable: a named error (exit 7) under the service's failure's code, nothing sent", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(2, { seed: 45, titlePrefix: "Unread" });
    await org.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "500", count: 10 });
    const r = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org, configDir: machine() });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toContain("the look for shipments another machine created could not read the service's shipments");
    expect(r.stderr).toContain("SHIPCTL_LOOK_DAYS=0");
    // A 500 is server_error, with its request, as in every other command (it said "unavailable", without them).
    const error = (JSON.parse(r.stdout) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: "server_error", exit_code: 7, method: "GET", path: "/api/v1/shipments", http_status: 500 });
    expect(await posts(org)).toBe(0);
  });

  it("a list newest first: the look finds the matches too", async () => {
    const org = await sb.newOrg();
    await org.control.setListOrder("desc");
    const { path } = rowsFile(3, { seed: 51, titlePrefix: "Desc" });
    await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir: machine() });
    const b = await runCli(["shipment", "create", "--csv", copyOf(path), "--json"], { sandbox: org, configDir: machine() });
    expect(b.exitCode, b.stderr).toBe(0);
    expect((JSON.parse(b.stdout) as Doc).counts).toMatchObject({ created: 0, matched: 3 });
  });

  it("this machine's own shipments are no matches: a second sheet with the same shipment under a new reference is sent", async () => {
    const org = await sb.newOrg();
    const [row] = shipmentRows(1, { seed: 61, titlePrefix: "Mine" });
    const here = machine();
    const first = await runCli(["shipment", "create", "--csv", writeRows([row!])], { sandbox: org, configDir: here });
    expect(first.exitCode, first.stderr).toBe(0);
    // The same row (its reference) in another sheet is the same write: the organization's ledger refuses it (issue 21).
    const copy = await runCli(["shipment", "create", "--csv", writeRows([row!], "other.csv"), "--json"], { sandbox: org, configDir: here });
    expect(copy.exitCode, copy.stderr).toBe(2);
    expect(copy.stderr).toContain("already sent by an earlier run from orders.csv");
    // The same shipment under a new reference is a second one made on purpose: the look does not take this machine's
    // first for another machine's.
    const again = await runCli(["shipment", "create", "--csv", writeRows([{ ...row!, reference: "Mine-again" }], "other.csv"), "--json"], { sandbox: org, configDir: here });
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Doc).counts).toMatchObject({ created: 1, matched: 0 });
    expect(await posts(org)).toBe(2);
  });

  it("a shipment this machine's rerun found created (its answer lost) is no match either", async () => {
    const org = await sb.newOrg();
    const [row] = shipmentRows(1, { seed: 67, titlePrefix: "Found" });
    const here = machine();
    const sheet = writeRows([row!]);
    // The answer is lost and the read-back fails too: the row is left in flight, for the rerun to find created.
    await org.control.fault({ ...POSTS, kind: "reset-after" });
    await org.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "500", count: 5 });
    const lost = await runCli(["shipment", "create", "--csv", sheet, "--json"], { sandbox: org, configDir: here, env: { SHIPCTL_LOOK_DAYS: "0" } });
    expect(lost.exitCode, lost.stderr).toBe(7);
    expect((JSON.parse(lost.stdout) as Doc).counts).toMatchObject({ created: 0, unknown: 1 });
    await org.control.clearFaults();
    const rerun = await runCli(["shipment", "create", "--csv", sheet, "--json"], { sandbox: org, configDir: here });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect((JSON.parse(rerun.stdout) as Doc).counts).toMatchObject({ created: 0, skipped: 1 });

    const again = await runCli(["shipment", "create", "--csv", writeRows([{ ...row!, reference: "Found-again" }], "other.csv"), "--json"], { sandbox: org, configDir: here });
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Doc).counts).toMatchObject({ created: 1, matched: 0 });
    expect(await posts(org)).toBe(2);
  });
});

const FLAGS = ["--title", "Blue Study", "--value", "1200", "--length", "30", "--height", "24", "--depth", "3", "--service", "1"];

describe("the look before a create: flags and JSON items", () => {
  it("flags: the same shipment from a second machine is matched (exit 0); --force-new sends it", async () => {
    const org = await sb.newOrg();
    const from = await addressId(org, "Gallery");
    const to = await addressId(org, "Collector");
    const args = ["shipment", "create", ...FLAGS, "--fulfillment-address-id", String(from), "--destination-address-id", String(to), "--json"];
    const a = await runCli(args, { sandbox: org, configDir: machine() });
    expect(a.exitCode, a.stderr).toBe(0);
    const id = (JSON.parse(a.stdout) as Doc).created[0]!.shipment_id;
    const b = await runCli(args, { sandbox: org, configDir: machine() });
    expect(b.exitCode, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ created: [], matched: [{ item: 1, shipment_id: id }] });
    expect(b.stderr).toMatch(new RegExp(`item 1 matches shipment ${id}, created \\d+ s ago, not by this machine`));
    const forced = await runCli([...args, "--force-new"], { sandbox: org, configDir: machine() });
    expect((JSON.parse(forced.stdout) as Doc).counts).toMatchObject({ created: 1 });
  });

  it("a JSON list with inline addresses: matched from a second machine", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(2, { seed: 71, titlePrefix: "Json" });
    const items = rows.map((r) => ({
      title: r.title,
      value: 1500,
      length: 30,
      height: 24,
      depth: 3,
      service: 1,
      fulfillment_address: GALLERY,
      destination_address: { ...GALLERY, name: "Collector", line_1: "5 Pine Street" },
    }));
    const a = await runCli(["shipment", "create", "--file", "-", "--json"], { sandbox: org, configDir: machine(), stdin: JSON.stringify(items) });
    expect(a.exitCode, a.stderr).toBe(0);
    const b = await runCli(["shipment", "create", "--file", "-", "--json"], { sandbox: org, configDir: machine(), stdin: JSON.stringify(items) });
    expect(b.exitCode, b.stderr).toBe(0);
    expect((JSON.parse(b.stdout) as Doc).counts).toMatchObject({ created: 0, matched: 2 });
    expect(await posts(org)).toBe(1);
  });
});

const addressId = (org: OrgTarget, name: string) => seedAddress(org, { name });

describe("the look before a create: MCP create_shipments", () => {
  it("items another machine created are listed matched, not sent; force_new sends them", async () => {
    const org = await sb.newOrg();
    const items = shipmentRows(2, { seed: 81, titlePrefix: "Mcp" }).map((r) => ({
      title: r.title,
      value: 2500,
      length: 30,
      height: 24,
      depth: 3,
      service: 1,
      fulfillment_address: GALLERY,
      destination_address: { ...GALLERY, name: "Collector", line_1: "5 Pine Street" },
    }));
    const a = await runCli(["shipment", "create", "--file", "-", "--json"], { sandbox: org, configDir: machine(), stdin: JSON.stringify(items) });
    const ids = (JSON.parse(a.stdout) as Doc).created.map((c) => c.shipment_id);
    const mcp = await startMcp([], { sandbox: org, configDir: machine() });
    try {
      const { doc, isError } = await mcp.call("create_shipments", { items });
      expect(isError, JSON.stringify(doc)).toBe(false);
      expect(doc.counts).toMatchObject({ items: 2, created: 0, matched: 2 });
      expect((doc.matched as Array<{ shipment_id: number }>).map((m) => m.shipment_id)).toEqual(ids);
      expect(await posts(org)).toBe(1);
      const forced = await mcp.call("create_shipments", { items, force_new: true });
      expect(forced.doc.counts).toMatchObject({ created: 2 });
    } finally {
      await mcp.close();
    }
  });
});

describe("the look before a create: an organization whose shipments are all older than the look's days", () => {
  // Shipments ascend by id over two pages (50 a page), none within the 7 days looked at: the search for the window's
  // first page asked for the last page again and again, without end (a create never started, and hammered the service).
  it("reads a few pages, finds nothing to match, and creates the rows (exit 0)", async () => {
    const org = await sb.newOrg();
    await org.control.seedShipments({ count: 60, created_from: "2025-01-01 00:00:00" });
    const r = await runCli(["shipment", "create", "--csv", rowsFile(3, { seed: 31, titlePrefix: "Old" }).path, "--json"], {
      sandbox: org,
      configDir: machine(),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Doc).counts).toMatchObject({ created: 3, matched: 0 });
    expect((await org.control.requests({ method: "GET", path: "/api/v1/shipments" })).length).toBeLessThan(10);
  });
});
