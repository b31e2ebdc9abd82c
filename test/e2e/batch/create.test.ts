// `shipctl shipment create --csv` against the sandbox: real exports, sizes around the 10-per-request limit, and every
// fault of the issue. After each scenario the sandbox holds each valid row's shipment exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, createReadStream, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { collect, fixture, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows, toCsv } from "../../../fixtures/csv/generate.mjs";
import { rowsFile, shipmentTitles, writeRows } from "./helpers.js";
import { heldLocks, inFlightEntries } from "../../helpers/ledger.js";
import { openCsv } from "../../../src/csv/csv-reader.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface Doc {
  created: Array<{ row: number; title: string; shipment_id: number }>;
  failed: Array<{ row: number; error: string; status: string }>;
  skipped: Array<{ row: number; shipment_id: number }>;
  counts: Record<string, number>;
}

async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
  const held = await shipmentTitles(org);
  for (const t of titles) expect(held.get(t), `"${t}" held ${held.get(t) ?? 0} times`).toBe(1);
  expect([...held.values()].reduce((a, b) => a + b, 0)).toBe(titles.length);
}

/** The titles of a fixture's rows, read as shipctl reads them (any encoding or delimiter). */
async function fixtureTitles(name: string): Promise<string[]> {
  const csv = await openCsv(createReadStream(fixture("csv", name)), name);
  const at = csv.header.findIndex((h) => h.trim().toLowerCase() === "title");
  const titles: string[] = [];
  for await (const r of csv.rows) titles.push(r.cells[at]!);
  return titles;
}

const posts = async (org: OrgTarget) => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

describe("shipctl shipment create --csv: files as spreadsheets write them", () => {
  it.each([
    ["excel-bom-crlf.csv", 12],
    ["excel-semicolon.csv", 23],
    ["google-sheets.csv", 15],
    ["numbers.csv", 8],
    ["excel-unicode-utf16le.txt", 6],
    ["quoted-newlines.csv", 5],
    ["one-row.csv", 1],
    ["ten-rows.csv", 10],
    ["eleven-rows.csv", 11],
  ])("%s: creates its %i rows, ten a request, exactly once", async (name, count) => {
    const org = await sb.newOrg();
    // --results puts the ledger beside it, in a temporary folder rather than in fixtures/.
    const results = join(tempDir(), "results.csv");
    const r = await runCli(["shipment", "create", "--csv", fixture("csv", name), "--json", "--results", results], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.counts).toMatchObject({ rows: count, created: count, failed: 0 });
    expect(await posts(org)).toBe(Math.ceil(count / 10));
    await exactlyOnce(org, await fixtureTitles(name));
  });

  it("1,000 rows: 100 requests, every row once, ids in the results file", async () => {
    const org = await sb.newOrg();
    const { path, titles } = rowsFile(1000, { seed: 99, titlePrefix: "K", galleries: 2 });
    const results = join(tempDir(), "results.csv");
    const r = await runCli(["shipment", "create", "--csv", path, "--results", results], { sandbox: org, timeoutMs: 60_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await posts(org)).toBe(100);
    await exactlyOnce(org, titles);
    const lines = readFileSync(results, "utf8").trim().split(/\r?\n/);
    expect(lines).toHaveLength(1001);
    // shipment_id, status, error (none), note (what was read differently in the row), then the row's place in the
    // original: its row number, its key, the original file.
    expect(lines[1]).toMatch(/,\d+,created,,"[^"]*phone ""\(206\) 953-6978"" -> \+12069536978(?:[^"]|"")*",2,[\w:#-]+,[^,]+$/);
  });

  it("reads stdin with --csv -", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(3, { seed: 5, titlePrefix: "Stdin" });
    const r = await runCli(["shipment", "create", "--csv", "-", "--json"], { sandbox: org, stdin: toCsv(rows) });
    expect(r.exitCode, r.stderr).toBe(0);
    await exactlyOnce(org, rows.map((x) => x.title!));
  });
});

describe("shipctl shipment create --csv: invalid input", () => {
  it("reports every bad row with its row, column and reason, sends nothing, exit 2", async () => {
    const org = await sb.newOrg();
    const dir = tempDir();
    const r = await runCli(["shipment", "create", "--csv", fixture("csv", "bad-rows.csv"), "--results", join(dir, "bad.csv")], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('row 3, value: value "1200.50" has a fractional part');
    expect(r.stderr).toContain("row 26: has 30 cells but the header names 28 columns");
    expect(r.stderr).toContain("3 of 25 rows are valid.");
    expect(r.stderr).toContain('ignoring column shipctl does not use: "problem" (column AB)');
    expect(await posts(org)).toBe(0);
    // Header plus the 22 invalid rows, ready to fix and rerun.
    expect(readFileSync(join(dir, "bad.errors.csv"), "utf8").trim().split(/\r?\n/)).toHaveLength(23);
  });

  it("a row with the same address on both sides (inline, or one stored id twice): each named by its row, nothing sent, exit 2", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(4, { seed: 5, titlePrefix: "Same" });
    for (const key of Object.keys(rows[1]!)) if (key.startsWith("destination_") && key !== "destination_address_id") rows[1]![key] = rows[1]![key.replace("destination_", "fulfillment_")]!;
    for (const key of Object.keys(rows[3]!)) if (key.startsWith("fulfillment_") || key.startsWith("destination_")) rows[3]![key] = "";
    rows[3]!.fulfillment_address_id = "7";
    rows[3]!.destination_address_id = "7";
    const r = await runCli(["shipment", "create", "--csv", writeRows(rows)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `row 3: the fulfillment and the destination address columns hold the same address (${rows[1]!.fulfillment_name}, ${rows[1]!.fulfillment_line_1}, ${rows[1]!.fulfillment_city}): ` +
        "a shipment goes from one address to another; correct the side that is wrong",
    );
    expect(r.stderr).toContain("row 5, destination_address_id: is 7, the same stored address as fulfillment_address_id: a shipment goes from one address to another;");
    expect(r.stderr).toContain("2 of 4 rows are valid.");
    expect(await posts(org)).toBe(0);
  });

  it("a row with the same address on both sides (inline, or one stored id twice): each named by its row, nothing sent, exit 2", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(4, { seed: 5, titlePrefix: "Same" });
    for (const key of Object.keys(rows[1]!)) if (key.startsWith("destination_") && key !== "destination_address_id") rows[1]![key] = rows[1]![key.replace("destination_", "fulfillment_")]!;
    for (const key of Object.keys(rows[3]!)) if (key.startsWith("fulfillment_") || key.startsWith("destination_")) rows[3]![key] = "";
    rows[3]!.fulfillment_address_id = "7";
    rows[3]!.destination_address_id = "7";
    const r = await runCli(["shipment", "create", "--csv", writeRows(rows)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `row 3: the fulfillment and the destination address columns hold the same address (${rows[1]!.fulfillment_name}, ${rows[1]!.fulfillment_line_1}, ${rows[1]!.fulfillment_city}): ` +
        "a shipment goes from one address to another; correct the side that is wrong",
    );
    expect(r.stderr).toContain("row 5, destination_address_id: is 7, the same stored address as fulfillment_address_id: a shipment goes from one address to another;");
    expect(r.stderr).toContain("2 of 4 rows are valid.");
    expect(await posts(org)).toBe(0);
  });

  it("a row with the same address on both sides (inline, or one stored id twice): each named by its row, nothing sent, exit 2", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(4, { seed: 5, titlePrefix: "Same" });
    for (const key of Object.keys(rows[1]!)) if (key.startsWith("destination_") && key !== "destination_address_id") rows[1]![key] = rows[1]![key.replace("destination_", "fulfillment_")]!;
    for (const key of Object.keys(rows[3]!)) if (key.startsWith("fulfillment_") || key.startsWith("destination_")) rows[3]![key] = "";
    rows[3]!.fulfillment_address_id = "7";
    rows[3]!.destination_address_id = "7";
    const r = await runCli(["shipment", "create", "--csv", writeRows(rows)], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `row 3: the fulfillment and the destination address columns hold the same address (${rows[1]!.fulfillment_name}, ${rows[1]!.fulfillment_line_1}, ${rows[1]!.fulfillment_city}): ` +
        "a shipment goes from one address to another; correct the side that is wrong",
    );
    expect(r.stderr).toContain("row 5, destination_address_id: is 7, the same stored address as fulfillment_address_id: a shipment goes from one address to another;");
    expect(r.stderr).toContain("2 of 4 rows are valid.");
    expect(await posts(org)).toBe(0);
  });

  it("names the closest header when a column is missing", async () => {
    const rows = shipmentRows(2, { seed: 1, titlePrefix: "H" });
    const text = toCsv(rows).replace("fulfillment_post_code", "Fulfilment Postcode");
    const r = await runCli(["shipment", "create", "--csv", "-"], { sandbox: await sb.newOrg(), stdin: text });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no fulfillment_post_code column; did you mean "Fulfilment Postcode" (column P)?');
  });

  it("refuses a Latin-1 file with how to re-export it", async () => {
    const text = Buffer.from(toCsv(shipmentRows(1, { seed: 1, titlePrefix: "Café" })), "utf8").toString().replace("Café", "Caf\u00e9");
    const r = await runCli(["shipment", "create", "--csv", "-"], { sandbox: await sb.newOrg(), stdin: Buffer.from(text, "latin1") });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/stdin is not UTF-8 text: line 2 holds the byte 0xE9/);
    expect(r.stderr).toContain("CSV UTF-8");
  });
});

describe("shipctl shipment create --csv: faults, and exactly once after each", () => {
  it("a connection reset after the service applied a request: reconciled, not resent", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after" });
    const { path, titles } = rowsFile(25, { seed: 31, titlePrefix: "ResetAfter" });
    const r = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/The answer to 1 request was lost/);
    expect(await posts(org)).toBe(3);
    await exactlyOnce(org, titles);
  });

  it("a 500: not resent in the same run; the service answered, so the read-back is final: not created (failed), and the rerun sends them", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "500" });
    const { path, titles } = rowsFile(12, { seed: 32, titlePrefix: "FiveHundred" });
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/The answer to 1 request was lost; reading the service's shipments/);
    expect(r.stderr).toMatch(/10 rows were proven not created/);
    expect(r.stderr).toMatch(/2 created, 10 failed/);
    expect(await posts(org)).toBe(2);

    const rerun = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toMatch(/in flight/);
    expect(await posts(org)).toBe(3);
    await exactlyOnce(org, titles);
  });

  it("a 500 after the service applied the request: read back as created, never sent twice, in the run or the rerun", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "500-after" });
    const { path, titles } = rowsFile(10, { seed: 36, titlePrefix: "AfterCommit" });
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/The answer to 1 request was lost/);
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, titles);

    const rerun = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, titles);
  });

  it("a 429 with Retry-After: waited for, then sent", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "429", retryAfter: 1 });
    const { path, titles } = rowsFile(10, { seed: 33, titlePrefix: "TooMany" });
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await posts(org)).toBe(2);
    await exactlyOnce(org, titles);
  });

  it("a 422 for one row of ten: that row fails, the other nine are created (exit 8)", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(10, { seed: 34, titlePrefix: "Reject" });
    for (const k of Object.keys(rows[3]!)) if (k.startsWith("destination_")) rows[3]![k] = "";
    rows[3]!.destination_address_id = "999999";
    const path = writeRows(rows);
    const r = await runCli(["shipment", "create", "--csv", path, "--json", "--results", join(tempDir(), "r.csv")], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.failed).toEqual([expect.objectContaining({ row: 5, status: "failed", error: expect.stringMatching(/^destination_address_id: /) })]);
    expect(doc.created).toHaveLength(9);
    expect(await posts(org)).toBe(2);
    await exactlyOnce(org, rows.filter((_, i) => i !== 3).map((x) => x.title!));
  });

  it("killed (SIGKILL) mid-run, then rerun: every row once", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "latency", ms: 300, count: 100 });
    const { path, titles } = rowsFile(80, { seed: 35, titlePrefix: "Killed" });
    const child = spawnCli(["shipment", "create", "--csv", path, "--concurrency", "2"], { sandbox: org });
    const done = collect(child, 60_000);
    await waitFor(async () => (await posts(org)) >= 3);
    child.kill("SIGKILL");
    const killed = await done;
    expect(killed.signal).toBe("SIGKILL");
    expect(inFlightEntries(org).length).toBeGreaterThan(0);
    await org.control.clearFaults();

    const rerun = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org, timeoutMs: 60_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/in flight when an earlier run stopped/);
    await exactlyOnce(org, titles);
  });

  it("Ctrl-C (SIGINT) mid-run: exit 130 with the command to resume; the rerun finishes with every row once", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "latency", ms: 300, count: 100 });
    const { path, titles } = rowsFile(80, { seed: 36, titlePrefix: "Interrupted" });
    const child = spawnCli(["shipment", "create", "--csv", path, "--concurrency", "2"], { sandbox: org });
    const done = collect(child, 60_000);
    await waitFor(async () => (await posts(org)) >= 3);
    child.kill("SIGINT");
    const stopped = await done;
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain(`To resume:\n  shipctl shipment create --csv ${path} --concurrency 2`);
    expect(heldLocks(org)).toEqual([]);
    await org.control.clearFaults();

    const rerun = await runCli(["shipment", "create", "--csv", path, "--concurrency", "2", "--json"], { sandbox: org, timeoutMs: 60_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    await exactlyOnce(org, titles);
    const doc = JSON.parse(rerun.stdout) as Doc;
    expect(doc.counts.created + doc.counts.skipped).toBe(80);
  });
});

describe("shipctl shipment create --csv: Ctrl-C while the addresses are verified", () => {
  it("exits 130 saying nothing was sent, not that a POST was interrupted", async () => {
    const org = await sb.newOrg();
    const verify = { method: "POST", path: "/api/v1/addresses/verify" };
    await org.control.fault({ ...verify, kind: "latency", ms: 20_000, count: 100 });
    const { path } = rowsFile(12, { seed: 37, titlePrefix: "Unverified" });
    const child = spawnCli(["shipment", "create", "--csv", path], { sandbox: org });
    const done = collect(child, 30_000);
    await waitFor(async () => (await org.control.requests(verify)).length > 0);
    child.kill("SIGINT");
    const stopped = await done;
    await org.control.clearFaults();
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain("Error: interrupted while verifying addresses; nothing was sent");
    expect(stopped.stderr).not.toMatch(/Interrupted during POST/);
    expect(await posts(org)).toBe(0);
  });
});

describe("shipctl shipment create --csv: a copy of a file already sent", () => {
  it("stops with exit 2 before sending, naming the earlier run and --force-new; with --force-new it sends", async () => {
    const org = await sb.newOrg();
    const { path, titles } = rowsFile(14, { seed: 41, titlePrefix: "Copied" });
    const first = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(first.exitCode, first.stderr).toBe(0);
    const copy = join(dirname(path), "orders (1).csv");
    copyFileSync(path, copy);

    const refused = await runCli(["shipment", "create", "--csv", copy], { sandbox: org });
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`all 14 of its rows were already sent by an earlier run from orders.csv (${path}), recorded in the ledger`);
    expect(refused.stderr).toContain("--force-new");
    expect(await posts(org)).toBe(2);
    await exactlyOnce(org, titles);

    const forced = await runCli(["shipment", "create", "--csv", copy, "--force-new", "--json"], { sandbox: org });
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect((JSON.parse(forced.stdout) as Doc).counts.created).toBe(14);
    expect(await posts(org)).toBe(4);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 50));
  }
}
