// `shipment update --csv`: the ledger spares a rerun only the rows updated with the same content. A row edited after
// a successful run (same reference, new values) is the change to send, and is sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { seedShipments } from "../../helpers/seed.js";
import { COLUMNS, shipmentRows, toCsv, type Row } from "../../../fixtures/csv/generate.mjs";
import { listAll } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("shipctl shipment update --csv, a row edited after a successful run", () => {
  it("sends the edited row again, skips the unchanged one, and sends a row edited back to its first content", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 2);
    const rows: Row[] = shipmentRows(2, { seed: 23, titlePrefix: "Edit" }).map((r, i) => ({ ...r, id: String(ids[i]) }));
    const path = join(tempDir(), "updates.csv");
    const write = (list: Row[]) => writeFileSync(path, toCsv(list, { columns: ["id", ...COLUMNS] }));
    const titles = async () => new Map((await listAll<{ id: number; title: string; value: number }>(org, "shipments")).map((s) => [s.id, s]));
    const patches = async () => (await org.control.requests({ method: "PATCH" })).length;

    write(rows);
    expect((await runCli(["shipment", "update", "--csv", path], { sandbox: org })).exitCode).toBe(0);
    expect(await patches()).toBe(2);

    const edited = [{ ...rows[0]!, title: "Edited twice", value: "900" }, rows[1]!];
    write(edited);
    const second = await runCli(["shipment", "update", "--csv", path, "--json"], { sandbox: org });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).counts).toMatchObject({ rows: 2, updated: 1, skipped: 1 });
    expect(await patches()).toBe(3);
    expect((await titles()).get(ids[0]!)).toMatchObject({ title: "Edited twice", value: 900 });

    // Back to the first content: the service holds the edit, so this is a change too.
    write(rows);
    const third = await runCli(["shipment", "update", "--csv", path, "--json"], { sandbox: org });
    expect(third.exitCode, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout).counts).toMatchObject({ updated: 1, skipped: 1 });
    expect((await titles()).get(ids[0]!)).toMatchObject({ title: rows[0]!.title });

    const fourth = await runCli(["shipment", "update", "--csv", path, "--json"], { sandbox: org });
    expect(JSON.parse(fourth.stdout).counts).toMatchObject({ updated: 0, skipped: 2 });
    expect(await patches()).toBe(4);
  });
});
