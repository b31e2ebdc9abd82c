// Runs that stop, and runs that must not run at once (issue 10): one file under two names or as a copy is refused
// while the first run works on it; a stopping run accounts for every row and drops the checks it no longer needs;
// a results folder that does not exist is made before anything is sent.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { copyFileSync, linkSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { inputRecords } from "../../helpers/ledger.js";
import { rowsFile, shipmentTitles, writeRows } from "./helpers.js";
import { HOLD_APPLY_MAX_MS, bodyRead, inFlightSandbox } from "../../helpers/slow-apply.js";
import { shipmentRows, type Row } from "../../../fixtures/csv/generate.mjs";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ applyMaxMs: 1500 });
});
afterAll(() => sb.close());

async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
  const counts = await shipmentTitles(org);
  for (const t of titles) expect(counts.get(t), t).toBe(1);
  expect(counts.size).toBe(titles.length);
}

describe("one input, two runs at the same moment", () => {
  // The first run's request is held until the test releases it, so the second run meets it at work however slow
  // the machine (a slow-apply of 1.2 s was over before the second run started on a loaded machine).
  const held = inFlightSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });
  for (const how of ["symlink", "hard link", "copy"] as const) {
    it(`through a ${how}: the second run is refused, naming the first; every row is created once`, async () => {
      // A symlink is the same input (its real path): held by the first run. A hard link or a copy is another input
      // whose rows the first run holds in flight in the ledger.
      const org = await held().newOrg();
      const configDir = tempDir("shipctl-config-");
      const { path, titles } = rowsFile(5, { seed: 81, titlePrefix: `Twice by ${how}` });
      const other = join(dirname(path), `other-name.csv`);
      if (how === "symlink") symlinkSync(path, other);
      else if (how === "hard link") linkSync(path, other);
      else copyFileSync(path, other);

      await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "hold" });
      const first = collect(spawnCli(["shipment", "create", "--csv", path], { sandbox: org, configDir }), 30_000);
      await bodyRead(org, { method: "POST", path: "/api/v1/shipments" });
      const second = await runCli(["shipment", "create", "--csv", other], { sandbox: org, configDir });
      expect(second.exitCode, second.stderr).toBe(2);
      if (how === "symlink") expect(second.stderr).toMatch(/another shipctl run is working on .*\(pid \d+, `shipctl shipment create --csv .*\.csv`, started /);
      else expect(second.stderr).toMatch(/all 5 of its rows were already sent by an earlier run from orders\.csv[\s\S]*still in flight/);
      await org.control.releaseHeld();
      expect((await first).exitCode).toBe(0);
      await exactlyOnce(org, titles);
    });
  }
});

describe("a run that stops", () => {
  it("--json after Ctrl-C accounts for every row of the file: created, unknown, not sent (reached or not)", async () => {
    const org = await sb.newOrg();
    await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "latency", ms: 300, count: 100 });
    const { path } = rowsFile(300, { seed: 82, titlePrefix: "Accounted" });
    const child = spawnCli(["shipment", "create", "--csv", path, "--concurrency", "2", "--json"], { sandbox: org });
    const done = collect(child, 60_000);
    await vi.waitFor(async () => expect((await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).length).toBeGreaterThanOrEqual(3), {
      timeout: 20_000,
      interval: 50,
    });
    child.kill("SIGINT");
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(130);
    const doc = JSON.parse(r.stdout) as Record<string, Array<{ row: number; status?: string }>> & { counts: Record<string, number> };
    expect(doc.counts.rows).toBe(300);
    const listed = ["created", "failed", "unknown", "not_sent", "skipped"].flatMap((k) => doc[k]!.map((e) => e.row));
    expect(new Set(listed).size).toBe(300);
    expect(doc.counts.created + doc.counts.failed + doc.counts.unknown + doc.counts.not_sent + doc.counts.skipped).toBe(300);
    expect(doc.counts.failed).toBe(0);
    expect(doc.not_sent.length).toBeGreaterThan(100);
    expect((await shipmentTitles(org)).size).toBe(doc.counts.created);
  });

  it("a file with an invalid row ends its address checks at once and silently: no retries of checks it no longer needs", async () => {
    const org = await sb.newOrg();
    // Every row has its own address, so many checks are in flight when the invalid row is read.
    const rows: Row[] = shipmentRows(40, { seed: 83, titlePrefix: "Stops" }).map((r, i) => ({ ...r, destination_name: `Collector ${i}` }));
    rows[39] = { ...rows[39]!, value: "not a number" };
    const path = writeRows(rows);
    await org.control.fault({ method: "POST", path: "/api/v1/addresses/verify", kind: "latency", ms: 2000, count: 200 });
    for (const extra of [[], ["--dry-run"]]) {
      await org.control.clearRequests();
      const r = await runCli(["shipment", "create", "--csv", path, ...extra], { sandbox: org });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(/retrying|destroyed/i);
      const checks = await org.control.requests({ method: "POST", path: "/api/v1/addresses/verify" });
      const distinct = new Set(rows.slice(0, 39).map((row) => row.destination_name)).size + 1;
      expect(checks.length).toBeLessThanOrEqual(distinct);
    }
    expect(await shipmentTitles(org)).toEqual(new Map());
  });
});

describe("--results in a folder that does not exist", () => {
  it("is created before anything is sent, on a first run and on a rerun", async () => {
    const org = await sb.newOrg();
    const { path, titles } = rowsFile(3, { seed: 84, titlePrefix: "Results folder" });
    const first = await runCli(["shipment", "create", "--csv", path], { sandbox: org });
    expect(first.exitCode, first.stderr).toBe(0);
    const results = join(dirname(path), "sub", "deeper", "r.csv");
    const rerun = await runCli(["shipment", "create", "--csv", path, "--results", results], { sandbox: org });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(readFileSync(results, "utf8")).toMatch(/already created|skipped/);
    await exactlyOnce(org, titles);
  });

  it("one that cannot be created stops the run before anything is sent (exit 2), naming it", async () => {
    const org = await sb.newOrg();
    const { path } = rowsFile(3, { seed: 85, titlePrefix: "Results blocked" });
    const file = join(dirname(path), "a-file");
    writeFileSync(file, "");
    const r = await runCli(["shipment", "create", "--csv", path, "--results", join(file, "r.csv")], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--results .*cannot be created/);
    expect(await shipmentTitles(org)).toEqual(new Map());
    expect(inputRecords(org)).toEqual([]);
  });
});
