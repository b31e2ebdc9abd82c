// An answer ends a request (issue 21): a write the service itself answered with a failure (a 5xx but a gateway's
// 502/503/504) is over, so its read-back settles it after a lagging read's allowance, in the run or in its rerun, and
// nothing waits out its settle time. A request with no answer, a gateway's answer, and a payment still wait. The
// sandbox here declares a 10-minute apply bound: a run that waited for a settle time would outlast the test, and one
// that did not wait proves it by finishing. Nothing here reads a clock; every stop waits on the sandbox's request log.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { collect, fixture, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { GALLERY_ARGS, seedShipments } from "../../helpers/seed.js";
import { rowsFile, shipmentTitles } from "./helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ applyMaxMs: 600_000 });
});
afterAll(() => sb.close());

const CREATE = { method: "POST", path: "/api/v1/shipments" };
const LIST = { method: "GET", path: "/api/v1/shipments" };
const STORE = { method: "POST", path: "/api/v1/addresses" };
const PAY = { method: "POST", path: "/api/v1/checkout" };
const posts = async (org: OrgTarget) => (await org.control.requests(CREATE)).length;

async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
  const counts = await shipmentTitles(org);
  for (const t of titles) expect(counts.get(t), t).toBe(1);
  expect(counts.size).toBe(titles.length);
}

describe("shipment create --csv, a request the service answered 500", () => {
  it("nothing applied: the run reads back and calls its rows not created (exit 8); the rerun with --no-wait sends them at once", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ ...CREATE, kind: "500" });
    const { path, titles } = rowsFile(12, { seed: 2101, titlePrefix: "Answered 500" });
    const args = ["shipment", "create", "--csv", path, "--concurrency", "1", "--json"];
    const first = await runCli(args, { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(8);
    expect(first.stderr).toMatch(/10 rows were proven not created \(not found on the service once its request was over\)/);
    const doc = JSON.parse(first.stdout) as { counts: Record<string, number>; failed: Array<{ error: string }> };
    expect(doc.counts).toMatchObject({ created: 2, failed: 10, unknown: 0 });
    expect(doc.failed[0]!.error).toMatch(/^not created: the service answered 500, and reading back found nothing it created/);

    const rerun = await runCli([...args, "--no-wait"], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout).counts).toMatchObject({ created: 10, skipped: 2 });
    expect(await posts(org)).toBe(3);
    await exactlyOnce(org, titles);
  });

  for (const [kind, applied] of [["500", false], ["500-after", true]] as const) {
    it(`${applied ? "applied" : "nothing applied"} (${kind}), the run killed while reading back: the rerun settles it without waiting out its settle time`, async () => {
      const org = await sb.newOrg();
      const configDir = tempDir("shipctl-config-");
      await org.control.fault({ ...CREATE, kind });
      // The run's read-back is held until the run is killed.
      await org.control.fault({ ...LIST, kind: "latency", ms: 600_000 });
      const { path, titles } = rowsFile(10, { seed: applied ? 2103 : 2102, titlePrefix: `Killed after ${kind}` });
      // SHIPCTL_LOOK_DAYS=0: the look before a create reads the list too, and the held list read is the read-back's.
      const child = spawnCli(["shipment", "create", "--csv", path], { sandbox: org, configDir, env: { SHIPCTL_LOOK_DAYS: "0" } });
      const killed = collect(child, 30_000);
      await vi.waitFor(
        async () => {
          const [create] = await org.control.requests(CREATE);
          if (create?.status !== 500 || (await org.control.requests(LIST)).length === 0) throw new Error("not reading back yet");
        },
        { timeout: 20_000, interval: 20 },
      );
      child.kill("SIGKILL");
      expect((await killed).signal).toBe("SIGKILL");

      const rerun = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org, configDir });
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      expect(rerun.stderr).toMatch(/10 rows were in flight when an earlier run stopped/);
      expect(rerun.stderr).toMatch(applied ? /10 found created, 0 proven not created/ : /0 found created, 10 proven not created/);
      expect(JSON.parse(rerun.stdout).counts).toMatchObject(applied ? { created: 0, skipped: 10 } : { created: 10 });
      expect(await posts(org)).toBe(applied ? 1 : 2);
      await exactlyOnce(org, titles);
    });
  }
});

describe("shipment create --csv, a request with no answer or a gateway's: still in flight until its settle time", () => {
  for (const kind of ["reset-before", "502", "503", "504"] as const) {
    it(`${kind}: unknown in the run; the rerun with --no-wait sends nothing and says until when (exit 7)`, async () => {
      const org = await sb.newOrg();
      const configDir = tempDir("shipctl-config-");
      await org.control.fault({ ...CREATE, kind });
      const { path } = rowsFile(3, { seed: 2104, titlePrefix: `No answer ${kind}` });
      const first = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org, configDir });
      expect(first.exitCode, first.stderr).toBe(7);
      expect(JSON.parse(first.stdout).counts).toMatchObject({ unknown: 3 });

      const rerun = await runCli(["shipment", "create", "--csv", path, "--no-wait", "--json"], { sandbox: org, configDir });
      expect(rerun.exitCode, rerun.stderr).toBe(7);
      const doc = JSON.parse(rerun.stdout) as { unknown: Array<{ error: string }> };
      expect(doc.unknown).toHaveLength(3);
      expect(doc.unknown[0]!.error).toMatch(/may still be applying it until/);
      expect(await posts(org)).toBe(1);
    });
  }
});

describe("address add, answered 500", () => {
  it("one address: not stored, said at once (exit 7); the rerun with --no-wait stores it", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ ...STORE, kind: "500" });
    const first = await runCli(["address", "add", ...GALLERY_ARGS], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(7);
    expect(first.stderr).toContain("Error: the address was not stored: the service answered 500, and it is not among the stored addresses");
    expect(first.stderr).toContain("Nothing was stored. Run the same command again to store it.");

    const again = await runCli(["address", "add", ...GALLERY_ARGS, "--no-wait", "--json"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: expect.any(Number) });
    expect(await org.control.requests(STORE)).toHaveLength(2);
  });

  it("--csv: the row answered 500 is not created (exit 8); the rerun with --no-wait creates it", async () => {
    const org = await sb.newOrg();
    const results = join(tempDir(), "stored.csv");
    const args = ["address", "add", "--csv", fixture("csv", "addresses.csv"), "--accept-recommended", "--concurrency", "1", "--results", results, "--json"];
    await org.control.fault({ ...STORE, kind: "500" });
    const first = await runCli(args, { sandbox: org });
    expect(first.exitCode, first.stderr).toBe(8);
    const doc = JSON.parse(first.stdout) as { counts: Record<string, number>; failed: Array<{ error: string }> };
    expect(doc.counts).toMatchObject({ created: 7, failed: 2, unknown: 0 });
    expect(doc.failed.map((f) => f.error)).toContainEqual(expect.stringMatching(/^not created: the service answered 500/));

    const rerun = await runCli([...args, "--no-wait"], { sandbox: org });
    expect(rerun.exitCode, rerun.stderr).toBe(8); // the PO box is still refused
    expect(JSON.parse(rerun.stdout).counts).toMatchObject({ created: 1, skipped: 7, failed: 1 });
    expect(await org.control.requests(STORE)).toHaveLength(9);
  });
});

describe("checkout, a payment answered 500", () => {
  it("keeps its settle time: the payment provider may finish after the service answered; the rerun with --no-wait pays nothing", async () => {
    const org = await sb.newOrg();
    const configDir = tempDir("shipctl-config-");
    const ids = await seedShipments(org, 1);
    await org.control.fault({ ...PAY, kind: "500" });
    const first = await runCli(["checkout", String(ids[0]), "--yes", "--json"], { sandbox: org, configDir });
    expect(first.exitCode, first.stderr).toBe(7);
    expect(JSON.parse(first.stdout)).toMatchObject({ unknown: ids });

    const again = await runCli(["checkout", String(ids[0]), "--yes", "--json", "--no-wait"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(7);
    expect(again.stderr).toContain(`shipment ${ids[0]}: a payment an earlier run sent may still be going through until`);
    expect(JSON.parse(again.stdout)).toMatchObject({ unknown: ids });
    expect(await org.control.requests(PAY)).toHaveLength(1);
  });
});
