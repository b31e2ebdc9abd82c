// Exactly once while the service is still applying a request (issue 10): a run killed or interrupted while the
// sandbox holds a create it has not applied yet, then rerun at once, and again after the settle time. The sandbox's
// slow-apply fault applies the request after a delay whether or not the client is still there.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { type OrgTarget } from "../../helpers/sandbox.js";
import { GALLERY } from "../../helpers/gallery.js";
import { APPLY_MAX_MS, SLOW_MS, bodyRead, inFlightSandbox } from "../../helpers/slow-apply.js";
import { rowsFile, shipmentTitles } from "./helpers.js";

const sandbox = inFlightSandbox();

async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
  const counts = await shipmentTitles(org);
  for (const t of titles) expect(counts.get(t), t).toBe(1);
  expect(counts.size).toBe(titles.length);
}

const CREATE = { method: "POST", path: "/api/v1/shipments" };
const posts = async (org: OrgTarget) => (await org.control.requests(CREATE)).length;

/** Starts `args`, waits until the sandbox holds its create request unapplied, and stops it with `signal`. */
async function stopWhileApplying(org: OrgTarget, args: string[], signal: NodeJS.Signals, configDir: string) {
  await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "slow-apply", ms: SLOW_MS });
  const child = spawnCli(args, { sandbox: org, configDir });
  const done = collect(child, 30_000);
  await bodyRead(org, CREATE);
  child.kill(signal);
  return done;
}

describe("a request the service is still applying when the run stops", () => {
  it("CSV, killed: the rerun at once waits for it and finds it; a rerun after the settle time sends nothing", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(6, { seed: 71, titlePrefix: "Applying" });
    const killed = await stopWhileApplying(org, ["shipment", "create", "--csv", path], "SIGKILL", configDir);
    expect(killed.signal).toBe("SIGKILL");
    expect(await shipmentTitles(org)).toEqual(new Map()); // not applied yet

    const rerun = await runCli(["shipment", "create", "--csv", path, "--json"], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/6 rows were in flight when an earlier run stopped/);
    expect(rerun.stderr).toMatch(/may still be applying them until/);
    expect(rerun.stderr).toMatch(/6 found created, 0 proven not created/);
    expect(JSON.parse(rerun.stdout).counts).toMatchObject({ created: 0, skipped: 6 });
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, titles);

    await new Promise((r) => setTimeout(r, APPLY_MAX_MS));
    const later = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(later.stderr).not.toMatch(/in flight/);
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, titles);
  });

  it("CSV, Ctrl-C: the run waits for the request's answer and records it (exit 130); the rerun sends nothing and waits for nothing", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(4, { seed: 72, titlePrefix: "Interrupted while applying" });
    const stopped = await stopWhileApplying(org, ["shipment", "create", "--csv", path, "--json"], "SIGINT", configDir);
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/requests already sent get up to 30 s to answer/);
    expect(JSON.parse(stopped.stdout).counts).toMatchObject({ created: 4 });
    await exactlyOnce(org, titles);

    const rerun = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toMatch(/in flight/);
    expect(await posts(org)).toBe(1);
  });

  it("--no-wait: the rerun at once sends nothing, exits 7 and says after when a rerun settles the rows", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(3, { seed: 73, titlePrefix: "No wait" });
    await stopWhileApplying(org, ["shipment", "create", "--csv", path], "SIGKILL", configDir);
    const rerun = await runCli(["shipment", "create", "--csv", path, "--no-wait", "--json"], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(7);
    const doc = JSON.parse(rerun.stdout) as { unknown: Array<{ error: string }> };
    expect(doc.unknown).toHaveLength(3);
    expect(doc.unknown[0]!.error).toMatch(/may still be applying it until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(await posts(org)).toBe(1);

    const settled = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(settled.exitCode, settled.stderr).toBe(0);
    await exactlyOnce(org, titles);
  });

  it("flags, killed: the rerun at once finds the shipment and creates nothing", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const args = ["shipment", "create", "--title", "Flags While Applying", "--value", "1200", "--length", "30", "--height", "24", "--depth", "3", "--service", "1", "--file", inlineAddresses()];
    await stopWhileApplying(org, args, "SIGKILL", configDir);
    const rerun = await runCli(args, { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/1 item was in flight when an earlier run stopped/);
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, ["Flags While Applying"]);
  });
});

describe("a service whose created_at lags its Date header", () => {
  for (const [name, lag] of [
    ["3 minutes", 3 * 60_000],
    ["5 hours", 5 * 3_600_000],
  ] as const) {
    it(`${name}, the lag measured by an earlier run: the lost request is found, not sent twice`, async () => {
      const org = await sandbox().newOrg();
      const configDir = tempDir("shipctl-config-");
      await org.control.lagCreatedAt(lag);
      const first = rowsFile(2, { seed: 74, titlePrefix: `Lag measured ${name}` });
      expect((await runCli(["shipment", "create", "--csv", first.path], { sandbox: org, configDir })).exitCode).toBe(0);
      expect(JSON.parse(readFileSync(`${configDir}/journals/service-clock.json`, "utf8"))[org.url].created_at_lag_ms).toBeGreaterThanOrEqual(lag - 1000);

      const { path, titles } = rowsFile(3, { seed: 75, titlePrefix: `Lag lost ${name}` });
      await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "500-after" });
      expect((await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir })).exitCode).toBe(0);
      await exactlyOnce(org, [...first.titles, ...titles]);
    });

    it(`${name}, the lag never measured: the rerun looks wider before calling anything not created`, async () => {
      const org = await sandbox().newOrg();
      const configDir = tempDir("shipctl-config-");
      await org.control.lagCreatedAt(lag);
      const { path, titles } = rowsFile(3, { seed: 76, titlePrefix: `Lag unknown ${name}` });
      await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "500-after" });
      const lost = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
      expect(lost.exitCode, lost.stderr).toBe(7);
      const rerun = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      expect(rerun.stderr).toMatch(/3 found created/);
      expect(await posts(org)).toBe(1);
      await exactlyOnce(org, titles);
    });
  }
});

/** A JSON file with the two inline addresses, so `--file` plus flags give a whole shipment. */
function inlineAddresses(): string {
  const path = `${tempDir("shipctl-e2e-flags-")}/addresses.json`;
  writeFileSync(path, JSON.stringify({ fulfillment_address: GALLERY, destination_address: { ...GALLERY, name: "Collector" } }));
  return path;
}
