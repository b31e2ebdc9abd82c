// A rerun finds the ledger of the input's earlier run whether it adds, drops or changes --results (docs/csv.md,
// "Where it is"): nothing is created twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { rowsFile, shipmentTitles } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function posts(org: Awaited<ReturnType<TestSandbox["newOrg"]>>): Promise<number> {
  return (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;
}

describe("shipment create --csv: rerunning with --results dropped, added or changed", () => {
  it("run with --results elsewhere, then without: the rerun resumes the same ledger and sends nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(3, { seed: 41, titlePrefix: "Drop" });
    const results = join(tempDir("shipctl-results-"), "res.csv");
    const first = await runCli(["shipment", "create", "--csv", path, "--results", results], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    const sent = await posts(org);

    const again = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await posts(org)).toBe(sent);
    const other = join(tempDir("shipctl-results-"), "other.csv");
    const changed = await runCli(["shipment", "create", "--csv", path, "--results", other], { sandbox: org, configDir });
    expect(changed.exitCode, changed.stderr).toBe(0);
    expect(await posts(org)).toBe(sent);
    const counts = await shipmentTitles(org);
    expect([...counts.keys()].sort()).toEqual([...titles].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it("run without --results, then with it: the rerun resumes the ledger beside the input and sends nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(3, { seed: 42, titlePrefix: "Add" });
    const first = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    const sent = await posts(org);

    const results = join(tempDir("shipctl-results-"), "res.csv");
    const again = await runCli(["shipment", "create", "--csv", path, "--results", results], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await posts(org)).toBe(sent);
    const counts = await shipmentTitles(org);
    expect([...counts.keys()].sort()).toEqual([...titles].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });
});
