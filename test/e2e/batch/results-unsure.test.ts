// A row a results file marks `unsure` (not created: it may be an edit of a created row) stays unsure when that results
// file is run: its carried key is its content's, which the ledger does not know, yet it is no new row. The case: a
// sheet without references whose invalid row 3 was fixed in the errors file and created there, then fixed the same way
// in the original, whose rerun reports it unsure beside the line of its creation; the results file run again must not
// create it a second time. POSTs are counted in the sandbox's request log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { shipmentRows, type Row } from "../../../fixtures/csv/generate.mjs";
import { listAll, writeRows } from "./helpers.js";
import { readTable, saveTable } from "../../helpers/csv-table.js";

/** The exit code for rows edited since they were created, or not matched with certainty (errors.ts). */
const UNSURE_EXIT = 9;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const posts = async (org: OrgTarget) => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

/** A sheet without a reference column whose row 3 (the second data row) is fixed in its errors file and in itself. */
async function fixedBothWays(prefix: string) {
  const org = await sb.newOrg();
  const configDir = tempDir("shipctl-config-");
  const dir = tempDir("shipctl-unsure-");
  const rows: Row[] = shipmentRows(4, { seed: 71, titlePrefix: prefix, references: false }).map(({ reference: _, ...r }) => r);
  const good = rows[1]!.value!;
  rows[1]!.value = "40"; // below the minimum: refused by shipctl
  const original = writeRows(rows, "o.csv", dir);
  const results = join(dir, "r.csv");
  const errors = join(dir, "r.errors.csv");
  const run = (file: string, ...flags: string[]) => runCli(["shipment", "create", "--csv", file, "--no-verify", "--results", results, ...flags], { sandbox: org, configDir });

  const first = await run(original, "--skip-invalid");
  expect(first.exitCode, first.stderr).toBe(8);
  const failed = await readTable(errors);
  failed.rows[0]!.value = good;
  saveTable(errors, failed);
  const fix = await run(errors);
  expect(fix.exitCode, fix.stderr).toBe(0);

  rows[1]!.value = good;
  writeRows(rows, "o.csv", dir);
  const rerun = await run(original);
  expect(rerun.exitCode, rerun.stderr).toBe(UNSURE_EXIT);
  const record = await readTable(results);
  expect(record.rows.filter((r) => r.shipctl_row === "3").map((r) => r.status).sort()).toEqual(["created", "unsure"]);
  return { org, results, run, unsure: record.rows.find((r) => r.status === "unsure")!.error };
}

describe("a results file with a line marked unsure", () => {
  for (const flags of [[], ["--update-changed"]]) {
    it(`run again${flags.length ? ` with ${flags.join(" ")}` : ""}: that row is still unsure, not created again (exit 9)`, async () => {
      const { org, results, run, unsure } = await fixedBothWays(flags.length ? "UnsureUpd" : "Unsure");
      const sent = await posts(org);
      const held = (await listAll(org, "shipments")).length;
      expect(held).toBe(4);

      const again = await run(results, ...flags);
      expect(again.exitCode, again.stderr).toBe(UNSURE_EXIT);
      expect(await posts(org)).toBe(sent);
      expect(await listAll(org, "shipments")).toHaveLength(held);
      const record = await readTable(results);
      const third = record.rows.filter((r) => r.shipctl_row === "3");
      expect(third.map((r) => r.status).sort()).toEqual(["created", "unsure"]);
      expect(third.find((r) => r.status === "unsure")!.error).toBe(unsure);
    });
  }

  it("a reference 007 saved again as 7, reported unsure beside 007's line: the results file run again does not create it", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-unsure-");
    const rows: Row[] = shipmentRows(3, { seed: 73, titlePrefix: "Zeros", references: true }).map((r, i) => ({ ...r, reference: `00${i + 6}` }));
    const original = writeRows(rows, "o.csv", dir);
    const results = join(dir, "r.csv");
    const run = (file: string) => runCli(["shipment", "create", "--csv", file, "--no-verify", "--results", results], { sandbox: org, configDir });
    expect((await run(original)).exitCode).toBe(0);
    rows[1]!.reference = "7";
    writeRows(rows, "o.csv", dir);
    const rerun = await run(original);
    expect(rerun.exitCode, rerun.stderr).toBe(UNSURE_EXIT);
    const sent = await posts(org);

    const again = await run(results);
    expect(again.exitCode, again.stderr).toBe(UNSURE_EXIT);
    expect(again.stdout).toContain("not created: reference 007 (row 3) was created as shipment");
    expect(await posts(org)).toBe(sent);
    expect(await listAll(org, "shipments")).toHaveLength(3);
  });

  it("with --force-new, that row is created", async () => {
    const { org, results, run } = await fixedBothWays("UnsureNew");
    const sent = await posts(org);
    const again = await run(results, "--force-new");
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await posts(org)).toBe(sent + 1);
    expect(await listAll(org, "shipments")).toHaveLength(5);
  });
});
