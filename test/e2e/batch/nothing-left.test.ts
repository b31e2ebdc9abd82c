// The end of the fix-and-rerun loop (issue 26): an errors file whose rows were all fixed (shipctl's own columns, no
// rows) is success, exit 0, "nothing left to fix in FILE", and leaves the results file alone; any other CSV with a
// header and no rows is still a mistake (exit 2).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { COLUMNS, shipmentRows } from "../../../fixtures/csv/generate.mjs";
import { writeRows } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("a CSV with a header and no rows", () => {
  it("an errors file with nothing left to fix exits 0, sends nothing and keeps the results file", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const dir = tempDir("shipctl-nothing-left-");
    const original = writeRows(shipmentRows(2, { seed: 71, titlePrefix: "Done" }), "gallery.csv", dir);
    const results = join(dir, "r.csv");
    const errors = join(dir, "r.errors.csv");
    const first = await runCli(["shipment", "create", "--csv", original, "--results", results], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    const kept = readFileSync(results, "utf8");
    const posts = (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

    const again = await runCli(["shipment", "create", "--csv", errors, "--results", results], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toBe(`nothing left to fix in ${errors}\n`);
    expect(readFileSync(results, "utf8")).toBe(kept);
    expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(posts);

    const json = await runCli(["shipment", "create", "--csv", errors, "--results", results, "--json"], { sandbox: org, configDir });
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ created: [], failed: [], counts: { rows: 0, created: 0 } });
  });

  it("a plain CSV with only a header still exits 2", async () => {
    const org = await sb.newOrg();
    const path = join(tempDir(), "empty.csv");
    writeFileSync(path, `${COLUMNS.join(",")}\n`);
    const r = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path} has a header row but no rows`);
  });
});
