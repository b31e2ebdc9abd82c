import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "undici";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { COLUMNS, shipmentRows, toCsv, type Row } from "../../../fixtures/csv/generate.mjs";
import { writeFileSync } from "node:fs";
import { listAll } from "./helpers.js";
import { join } from "node:path";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const inline = { name: "North Gallery", email: "ship@north.example", phone: "+12069536978", line_1: "1201 Second Avenue", city: "Seattle", region: "WA", post_code: "98101", country: 1 };

async function seed(org: OrgTarget, n: number): Promise<number[]> {
  const shipments = Array.from({ length: n }, (_, i) => ({ title: `Seed ${i}`, value: 500, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: inline, destination_address: inline }));
  const res = await request(`${org.url}/api/v1/shipments`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.token}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ shipments }),
  });
  const body = (await res.body.json()) as { shipments: Array<{ id: number }> };
  return body.shipments.map((s) => s.id);
}

describe("shipctl shipment update --csv", () => {
  it("PATCHes each row's shipment, and a rerun skips the rows already updated", async () => {
    const org = await sb.newOrg();
    const ids = await seed(org, 4);
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
    const ids = await seed(org, 2);
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
