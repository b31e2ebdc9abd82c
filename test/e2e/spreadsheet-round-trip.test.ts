// The spreadsheet round trip of issue 12, the whole loop as gallery staff run it, each write rehearsed first:
// a file with bad rows -> `--skip-invalid --results r.csv` -> fix r.errors.csv -> run it with the same --results ->
// r.csv holds every original row, each created once -> `list shipments --status Draft --format csv` -> edit one
// value -> `shipment update --csv` applies exactly it -> `checkout --from r.csv --quote`, then `--yes`: each paid once.
// Before every batch write, `--dry-run` predicts the real run's counts and exit code (rehearseThenRun checks it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../helpers/sandbox.js";
import { readTable, saveTable } from "../helpers/csv-table.js";
import { rehearseThenRun } from "../helpers/rehearse.js";
import { shipmentRows } from "../../fixtures/csv/generate.mjs";
import { shipmentTitles, writeRows } from "./batch/helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const shipmentPosts = async (org: OrgTarget) => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

async function shipmentJson(org: OrgTarget, id: string, configDir: string): Promise<Record<string, unknown>> {
  const r = await runCli(["shipment", "get", id, "--json"], { sandbox: org, configDir });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

it("bad rows -> results -> fixed errors file -> export -> edit -> update -> pay: every row created once, paid once", async () => {
  const org = await sb.newOrg();
  const configDir = tempDir("shipctl-config-");
  const dir = tempDir("shipctl-round-trip-");
  const rows = shipmentRows(12, { seed: 1201, titlePrefix: "Round" });
  rows[2]!.value = "20000"; // sheet row 4: above the 10,000 USD limit
  rows[7]!.title = ""; // sheet row 9: no title
  const original = writeRows(rows, "gallery-export.csv", dir);
  const results = join(dir, "r.csv");
  const errors = join(dir, "r.errors.csv");

  // 1. The first run sends the valid rows and keeps the bad ones in the errors file (exit 8: some rows failed).
  const first = await rehearseThenRun(org, ["shipment", "create", "--csv", original, "--skip-invalid", "--results", results], configDir);
  expect(first.real.exitCode, first.real.stderr).toBe(8);
  expect(first.counts).toMatchObject({ rows: 12, created: 10, failed: 2 });
  expect(first.doc.counts).toMatchObject({ rows: 12, would_send: 10, invalid: 2 });
  expect(first.real.stderr).toContain(`--csv ${errors} --results ${results}`);

  // 2. Fixed in a spreadsheet, the errors file is rehearsed and run with the same --results.
  const failed = await readTable(errors);
  expect(failed.rows.map((r) => r.shipctl_row)).toEqual(["4", "9"]);
  failed.rows[0]!.value = "2000";
  failed.rows[1]!.title = "Round fixed title";
  saveTable(errors, failed);
  const fix = await rehearseThenRun(org, ["shipment", "create", "--csv", errors, "--results", results], configDir);
  expect(fix.real.exitCode, fix.real.stderr).toBe(0);
  expect(fix.counts).toMatchObject({ created: 2, failed: 0 });

  // 3. r.csv holds every row of the original, created once each; rerunning the original sends nothing.
  const record = await readTable(results);
  expect(record.rows.map((r) => r.shipctl_row)).toEqual(["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"]);
  expect(record.rows.every((r) => r.status === "created")).toBe(true);
  expect(new Set(record.rows.map((r) => r.shipment_id)).size).toBe(12);
  expect(await shipmentPosts(org)).toBe(2);
  const titles = await shipmentTitles(org);
  expect(titles.size).toBe(12);
  expect([...titles.values()].every((n) => n === 1)).toBe(true);
  const rerun = await rehearseThenRun(org, ["shipment", "create", "--csv", original, "--skip-invalid", "--results", results], configDir);
  expect(rerun.counts.created).toBe(0);
  expect(await shipmentPosts(org)).toBe(2);

  // 4. Export the Drafts as CSV, change one value as a spreadsheet would, and apply it with update --csv.
  const exported = await runCli(["list", "shipments", "--status", "Draft", "--format", "csv", "--all"], { sandbox: org, configDir });
  expect(exported.exitCode, exported.stderr).toBe(0);
  const exportPath = join(dir, "drafts.csv");
  writeFileSync(exportPath, exported.stdout);
  const drafts = await readTable(exportPath);
  expect(drafts.rows.map((r) => r.shipment_id).sort()).toEqual(record.rows.map((r) => r.shipment_id).sort());
  const edited = drafts.rows[5]!;
  const untouched = drafts.rows[6]!;
  const before = await shipmentJson(org, untouched.shipment_id!, configDir);
  edited.value = "4321";
  saveTable(exportPath, drafts);
  const update = await rehearseThenRun(org, ["shipment", "update", "--csv", exportPath], configDir, "updated");
  expect(update.real.exitCode, update.real.stderr).toBe(0);
  expect((await shipmentJson(org, edited.shipment_id!, configDir)).value).toBe(4321);
  const { updated_at: _a, ...after } = await shipmentJson(org, untouched.shipment_id!, configDir);
  const { updated_at: _b, ...unchanged } = before;
  expect(after).toEqual(unchanged);

  // 5. Price, then pay what the batch made, from r.csv: one charge at the quoted total, and never a second.
  const quote = await runCli(["checkout", "--from", results, "--quote", "--json"], { sandbox: org, configDir });
  expect(quote.exitCode, quote.stderr).toBe(0);
  const quoted = JSON.parse(quote.stdout) as { total: number };
  expect(await org.control.charges()).toEqual([]);
  const paid = await runCli(["checkout", "--from", results, "--yes", "--json"], { sandbox: org, configDir });
  expect(paid.exitCode, paid.stderr).toBe(0);
  expect(JSON.parse(paid.stdout)).toMatchObject({ status: "paid", total: quoted.total });
  expect((JSON.parse(paid.stdout) as { paid: number[] }).paid.map(String).sort()).toEqual(record.rows.map((r) => r.shipment_id).sort());
  const again = await runCli(["checkout", "--from", results, "--yes", "--json"], { sandbox: org, configDir });
  expect(again.exitCode, again.stderr).toBe(0);
  expect(JSON.parse(again.stdout)).toMatchObject({ status: "nothing-to-pay", paid: [] });
  // One charge per checkout session (the contract caps a session's shipments): each shipment charged exactly once.
  const charges = await org.control.charges();
  const charged = charges.flatMap((c) => Object.keys(c.shipments));
  expect(charged.sort()).toEqual(record.rows.map((r) => r.shipment_id).sort());
  expect(charges.reduce((sum, c) => sum + c.total, 0)).toBe(quoted.total);
}, 120_000); // Twenty-odd runs of the CLI, one after another: far longer than one run on a busy machine.
