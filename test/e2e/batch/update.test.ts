import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { seedShipments } from "../../helpers/seed.js";
import { COLUMNS, shipmentRows, toCsv, type Row } from "../../../fixtures/csv/generate.mjs";
import { writeFileSync } from "node:fs";
import { listAll } from "./helpers.js";
import { join } from "node:path";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("shipctl shipment update --csv", () => {
  it("PATCHes each row's shipment, and a rerun skips the rows already updated", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 4);
    const rows: Row[] = shipmentRows(4, { seed: 21, titlePrefix: "Upd" }).map((r, i) => ({ ...r, id: String(ids[i]) }));
    const path = join(tempDir(), "updates.csv");
    writeFileSync(path, toCsv(rows, { columns: ["id", ...COLUMNS] }));
    const r = await runCli(["shipment", "update", "--csv", path, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).counts).toMatchObject({ rows: 4, updated: 4 });
    const stored = await listAll<{ id: number; title: string }>(org, "shipments");
    expect(stored.map((s) => s.title).sort()).toEqual(rows.map((x) => x.title).sort());
    expect(await org.control.requests({ method: "PATCH" })).toHaveLength(4);

    const again = await runCli(["shipment", "update", "--csv", path], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already updated \(earlier run\)/);
    expect(await org.control.requests({ method: "PATCH" })).toHaveLength(4);
  });

  it("fails the row of a shipment that does not exist and updates the rest (exit 8)", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 2);
    const rows = shipmentRows(3, { seed: 22, titlePrefix: "Miss" }).map((r, i) => ({ ...r, id: String(ids[i] ?? 99999) }));
    const path = join(tempDir(), "missing.csv");
    writeFileSync(path, toCsv(rows, { columns: ["id", ...COLUMNS] }));
    const r = await runCli(["shipment", "update", "--csv", path, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    const doc = JSON.parse(r.stdout) as { failed: Array<{ row: number; error: string }> };
    expect(doc.failed).toEqual([expect.objectContaining({ row: 4, error: expect.stringMatching(/99999/) })]);
  });

  it("still needs an id without --csv", async () => {
    const r = await runCli(["shipment", "update", "--title", "x"], {});
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("missing required argument 'id'");
  });
});
