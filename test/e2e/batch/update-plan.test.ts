// Updates as a plan (issue 25): `shipment update --csv` and `address update --csv` read each row's record first and
// send only the rows that change it. The harm without it: 60 drafts exported, quoted, one value edited, 60 PATCHes,
// and every price cleared (the sandbox clears a shipment's price on every PATCH, even one that changes nothing).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { readTable, saveTable } from "../../helpers/csv-table.js";
import { rehearseThenRun } from "../../helpers/rehearse.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress } from "../../helpers/seed.js";
import { listAll } from "./helpers.js";
import { writeFileSync } from "node:fs";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface PlanEntry {
  row: number;
  status: "update" | "unchanged";
  changes: Array<{ field: string; column: string; from: unknown; to: unknown }>;
  reason?: string;
  shipment_id?: number;
  address_id?: number;
}

const patches = async (org: OrgTarget) => (await org.control.requests({ method: "PATCH" })).map((r) => r.path);

/** The export of `list <kind> --format csv --all`, saved to a file in a new folder. */
async function exportTo(org: OrgTarget, kind: "shipments" | "addresses", configDir: string): Promise<string> {
  const exported = await runCli(["list", kind, "--format", "csv", "--all"], { sandbox: org, configDir });
  expect(exported.exitCode, exported.stderr).toBe(0);
  const path = join(tempDir("shipctl-plan-"), `${kind}.csv`);
  writeFileSync(path, exported.stdout);
  return path;
}

describe("shipment update --csv of an export with one value edited", () => {
  // Six runs of the CLI (quote, export, dry run, run) over 60 records: room of its own, as json-keys.test.ts has.
  it("sends exactly that row (1 PATCH), says the plan before the run and in --json, and the other 59 keep their prices", { timeout: 120_000 }, async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const seeded = await org.control.seedShipments({ count: 60, title_prefix: "Draft" });
    const ids = Array.from({ length: 60 }, (_, i) => seeded.first_id + i);
    const quote = await runCli(["checkout", "--quote", ids.join(","), "--json"], { sandbox: org, configDir });
    expect(quote.exitCode, quote.stderr).toBe(0);

    const path = await exportTo(org, "shipments", configDir);
    const table = await readTable(path);
    expect(table.rows).toHaveLength(60);
    const edited = table.rows[7]!;
    const editedId = Number(edited.shipment_id);
    const before = Number(edited.value);
    edited.value = String(before + 25);
    saveTable(path, table);
    await org.control.clearRequests();

    const { dry, doc, real, counts } = await rehearseThenRun(org, ["shipment", "update", "--csv", path], configDir, "updated");
    // The dry run says the plan, and the run follows it.
    expect(dry.stderr).toContain("Plan: 1 to update, 59 unchanged.");
    expect(dry.stderr).toContain(`row 9 (shipment ${editedId}): value ${before} → ${before + 25}`);
    expect(dry.stderr).toContain("Dry run: 1 row would be sent in 1 request; 59 unchanged. Nothing was sent.");
    expect(doc.counts).toMatchObject({ rows: 60, would_send: 1, unchanged: 59 });
    expect(real.exitCode, real.stderr).toBe(0);
    expect(counts).toMatchObject({ rows: 60, updated: 1, unchanged: 59 });
    expect(real.stderr).toContain("Plan: 1 to update, 59 unchanged.");
    // Its price may go: the run says so before sending, and how to price it again.
    expect(real.stderr).toContain(`1 shipment to update has a price (${editedId}): the service may clear a shipment's price when it is updated`);
    expect(real.stderr).toContain(`shipctl checkout --quote ${editedId}`);
    expect(real.stderr).toContain("1 updated, 59 unchanged (of 60 rows).");

    // --json carries the plan: per row its id, update or unchanged, and what changes.
    const plan = (JSON.parse(real.stdout) as { plan: PlanEntry[] }).plan;
    expect(plan).toHaveLength(60);
    expect(plan.filter((p) => p.status === "update")).toEqual([
      { row: 9, shipment_id: editedId, status: "update", changes: [{ field: "value", column: "value", from: before, to: before + 25 }] },
    ]);
    expect(plan.filter((p) => p.status === "unchanged").map((p) => p.shipment_id)).toEqual(ids.filter((id) => id !== editedId));
    expect((JSON.parse(dry.stdout) as { plan: PlanEntry[] }).plan).toEqual(plan);

    expect(await patches(org)).toEqual([`/api/v1/shipments/${editedId}`]);
    const stored = await listAll<{ id: number; value: number; price: number | null }>(org, "shipments");
    expect(stored.find((s) => s.id === editedId)).toMatchObject({ value: before + 25, price: null });
    const others = stored.filter((s) => s.id !== editedId);
    expect(others).toHaveLength(59);
    expect(others.filter((s) => s.price === null)).toEqual([]);
  });

  // The read is retried as any read (backoff between attempts, twice): room of its own.
  it("sends a row whose record could not be read, and says why", { timeout: 120_000 }, async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const seeded = await org.control.seedShipments({ count: 3, title_prefix: "Unread" });
    const path = await exportTo(org, "shipments", configDir);
    const unread = seeded.first_id + 1;
    // Every attempt of that read fails (1 + 4 retries), in the dry run and in the run.
    await org.control.fault({ method: "GET", path: `/api/v1/shipments/${unread}`, kind: "500", count: 10 });
    await org.control.clearRequests();

    const { dry, real, counts } = await rehearseThenRun(org, ["shipment", "update", "--csv", path], configDir, "updated");
    for (const r of [dry, real]) {
      expect(r.stderr).toContain("Plan: 1 to update, 2 unchanged.");
      expect(r.stderr).toMatch(new RegExp(`row 3 \\(shipment ${unread}\\): sent as it is, not compared: its current record could not be read \\(.*500`));
    }
    expect(counts).toMatchObject({ rows: 3, updated: 1, unchanged: 2 });
    const entry = (JSON.parse(real.stdout) as { plan: PlanEntry[] }).plan.find((p) => p.row === 3);
    expect(entry).toMatchObject({ shipment_id: unread, status: "update", changes: [], reason: expect.stringContaining("could not be read") });
    expect(await patches(org)).toEqual([`/api/v1/shipments/${unread}`]);
  });
});

describe("address update --csv of an export with one value edited", () => {
  it("sends exactly that row (1 PATCH), and says the plan before the run and in --json", { timeout: 120_000 }, async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) ids.push(await seedAddress(org, { name: `Gallery ${i}`, line_1: `${i} Main Street` }));
    const path = await exportTo(org, "addresses", configDir);
    const table = await readTable(path);
    const edited = table.rows.find((r) => r.address_id === String(ids[4]))!;
    edited.line_1 = "55 Harbour Road";
    saveTable(path, table);
    await org.control.clearRequests();

    const { dry, doc, real, counts } = await rehearseThenRun(org, ["address", "update", "--csv", path], configDir, "updated");
    expect(dry.stderr).toContain("Plan: 1 to update, 11 unchanged.");
    expect(dry.stderr).toContain(`row 6 (address ${ids[4]}): line_1 "5 Main Street" → "55 Harbour Road"`);
    expect(doc.counts).toMatchObject({ rows: 12, would_send: 1, unchanged: 11 });
    expect(real.exitCode, real.stderr).toBe(0);
    expect(counts).toMatchObject({ rows: 12, updated: 1, unchanged: 11 });
    const plan = (JSON.parse(real.stdout) as { plan: PlanEntry[] }).plan;
    expect(plan.filter((p) => p.status === "update")).toEqual([
      { row: 6, address_id: ids[4], status: "update", changes: [{ field: "line_1", column: "line_1", from: "5 Main Street", to: "55 Harbour Road" }] },
    ]);
    expect(plan.filter((p) => p.status === "unchanged")).toHaveLength(11);
    expect(await patches(org)).toEqual([`/api/v1/addresses/${ids[4]}`]);
    const stored = await listAll<{ id: number; line_1: string }>(org, "addresses");
    expect(stored.find((a) => a.id === ids[4])?.line_1).toBe("55 Harbour Road");
  });
});
