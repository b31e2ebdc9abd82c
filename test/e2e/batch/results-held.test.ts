// A results file another program holds (issue 24: Excel on Windows). Before anything is sent, --results and its errors
// file must be writable: a run that cannot record its outcomes does not send. If Excel takes the file after that
// check, the outcomes are in the ledger, and the same command again writes the results file without sending.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { readTable } from "../../helpers/csv-table.js";
import { rowsFile } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const posts = async (org: OrgTarget) => (await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length;

describe("shipment create --csv --results: a results file that cannot be written", () => {
  it("is refused before anything is sent (exit 2, naming the file), for the results file and for its errors file", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path } = rowsFile(3, { seed: 241, titlePrefix: "Held" });
    const dir = tempDir("shipctl-held-");
    // Linux lets a held file be replaced; a folder where the file should be cannot be opened for writing either.
    for (const name of ["r.csv", "r.errors.csv"]) {
      mkdirSync(join(dir, name));
      const r = await runCli(["shipment", "create", "--csv", path, "--results", join(dir, "r.csv")], { sandbox: org, configDir });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(join(dir, name));
      expect(r.stderr).toContain("Nothing was sent");
      // A folder is said to be one: closing Excel would not help.
      expect(r.stderr).toContain(`${join(dir, name)} is a folder, not a file`);
      expect(r.stderr).not.toContain("Excel");
      expect(await posts(org)).toBe(0);
      rmSync(join(dir, name), { recursive: true });
    }
  });

  it("a run whose results file was not written: the same command again writes it, sending nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(3, { seed: 242, titlePrefix: "Held" });
    const results = join(tempDir("shipctl-held-"), "r.csv");
    // "skipped": created by an earlier run, with its id. The outcomes reach the ledger; no results file is written (as when Excel took it after the check).
    const first = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(0);
    const sent = await posts(org);
    expect(sent).toBeGreaterThan(0);

    const again = await runCli(["shipment", "create", "--csv", path, "--results", results], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await posts(org)).toBe(sent);
    const table = await readTable(results);
    expect(table.rows.map((r) => r.title)).toEqual(titles);
    expect(table.rows.map((r) => [r.status, r.shipment_id !== ""])).toEqual(titles.map(() => ["skipped", true]));
  });
});
