// Exactly once while the service is still applying a request (issue 10): a run killed or interrupted while the
// sandbox holds a create it has not applied yet, then rerun at once, and again after the settle time. The sandbox's
// hold fault applies the request when the test releases it, whether or not the client is still there: each step
// waits on the sandbox or on what the CLI prints, never on the machine's speed. The reruns settle the rows by
// reading the service back: those run against a sandbox answering stored shipments in each shape (issue 20).
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { SHIPMENT_SHAPES } from "../../../src/sandbox/defaults.js";
import { type OrgTarget } from "../../helpers/sandbox.js";
import { GALLERY } from "../../helpers/gallery.js";
import { HOLD_APPLY_MAX_MS, applied, bodyRead, inFlightSandbox, printed, received } from "../../helpers/slow-apply.js";
import { seedAddress } from "../../helpers/seed.js";
import { shipmentRows, type RowOptions } from "../../../fixtures/csv/generate.mjs";
import { rowsFile, shipmentTitles, writeRows } from "./helpers.js";

const sandbox = inFlightSandbox();

/**
 * A bound on a test that hangs, not a measure of it: each test runs the CLI three or four times and waits only on the
 * sandbox or on what the CLI prints, and at a load of 15 on two cores such a test took over the default 30 s.
 */
const HANGS_AFTER = { timeout: 120_000 };

async function exactlyOnce(org: OrgTarget, titles: readonly string[]): Promise<void> {
  const counts = await shipmentTitles(org);
  for (const t of titles) expect(counts.get(t), t).toBe(1);
  expect(counts.size).toBe(titles.length);
}

const CREATE = { method: "POST", path: "/api/v1/shipments" };
const LIST = { method: "GET", path: "/api/v1/shipments" };
const posts = async (org: OrgTarget) => (await org.control.requests(CREATE)).length;

/** Starts `args`, waits until the sandbox holds its create request unapplied, and stops it with `signal`. */
async function stopWhileApplying(org: OrgTarget, args: string[], signal: NodeJS.Signals, configDir: string) {
  await org.control.fault({ ...CREATE, kind: "hold" });
  const child = spawnCli(args, { sandbox: org, configDir });
  const done = collect(child, HANGS_AFTER.timeout);
  await bodyRead(org, CREATE);
  child.kill(signal);
  return { done, child };
}

/** Runs `args` while the create is held, and releases it once the run has read the shipments back and found none. */
async function rerunReleasing(org: OrgTarget, args: string[], configDir: string) {
  const reads = (await org.control.requests(LIST)).length;
  const rerun = collect(spawnCli(args, { sandbox: org, configDir }), HANGS_AFTER.timeout);
  await received(org, LIST, reads + 1);
  await org.control.releaseHeld();
  return rerun;
}

describe.each(SHIPMENT_SHAPES)("a request the service is still applying when the run stops (shipments read back in the %s shape)", HANGS_AFTER, (shipmentShape) => {
  const sandbox = inFlightSandbox({ shipmentShape, applyMaxMs: HOLD_APPLY_MAX_MS });

  /** Rows from a stored gallery address (its id) to inline destinations: the read-back meets both kinds of side. */
  async function storedGalleryRows(org: OrgTarget, n: number, options: RowOptions & { titlePrefix: string }) {
    const rows = shipmentRows(n, options);
    const gallery = String(await seedAddress(org));
    for (const r of rows) {
      for (const key of Object.keys(r)) if (key.startsWith("fulfillment_")) r[key] = "";
      r.fulfillment_address_id = gallery;
    }
    return { path: writeRows(rows), titles: rows.map((r) => r.title!) };
  }

  it("CSV, killed: the rerun at once waits for it and finds it; a later rerun sends nothing", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = await storedGalleryRows(org, 6, { seed: 71, titlePrefix: "Applying" });
    const killed = await (await stopWhileApplying(org, ["shipment", "create", "--csv", path], "SIGKILL", configDir)).done;
    expect(killed.signal).toBe("SIGKILL");
    expect(await shipmentTitles(org)).toEqual(new Map()); // not applied yet

    const rerun = await rerunReleasing(org, ["shipment", "create", "--csv", path, "--json"], configDir);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/6 rows were in flight when an earlier run stopped/);
    expect(rerun.stderr).toMatch(/may still be applying them until/);
    expect(rerun.stderr).toMatch(/6 found created, 0 proven not created/);
    expect(JSON.parse(rerun.stdout).counts).toMatchObject({ created: 0, skipped: 6 });
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, titles);

    const later = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(later.stderr).not.toMatch(/in flight/);
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, titles);
  });

  it("CSV, Ctrl-C: the run waits for the request's answer and records it (exit 130); the rerun sends nothing and waits for nothing", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = await storedGalleryRows(org, 4, { seed: 72, titlePrefix: "Interrupted while applying" });
    const { done, child } = await stopWhileApplying(org, ["shipment", "create", "--csv", path, "--json"], "SIGINT", configDir);
    // The answer comes only once the run has taken the Ctrl-C and waits for it.
    await printed(child, /requests already sent get up to 30 s to answer/);
    await org.control.releaseHeld();
    const stopped = await done;
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
    const { path, titles } = await storedGalleryRows(org, 3, { seed: 73, titlePrefix: "No wait" });
    await (await stopWhileApplying(org, ["shipment", "create", "--csv", path], "SIGKILL", configDir)).done;
    // Still held: the rerun cannot find the rows, however long it took to start.
    const rerun = await runCli(["shipment", "create", "--csv", path, "--no-wait", "--json"], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(7);
    const doc = JSON.parse(rerun.stdout) as { unknown: Array<{ error: string }> };
    expect(doc.unknown).toHaveLength(3);
    expect(doc.unknown[0]!.error).toMatch(/may still be applying it until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(await posts(org)).toBe(1);

    await org.control.releaseHeld();
    await applied(org, CREATE);

    const settled = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(settled.exitCode, settled.stderr).toBe(0);
    await exactlyOnce(org, titles);
  });

  it("flags, killed: the rerun at once finds the shipment and creates nothing", async () => {
    const org = await sandbox().newOrg();
    const configDir = tempDir("shipctl-config-");
    const args = ["shipment", "create", "--title", "Flags While Applying", "--value", "1200", "--length", "30", "--height", "24", "--depth", "3", "--service", "1", "--file", inlineAddresses(), "--fulfillment-address-id", String(await seedAddress(org))];
    await (await stopWhileApplying(org, args, "SIGKILL", configDir)).done;
    const rerun = await rerunReleasing(org, args, configDir);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/1 item was in flight when an earlier run stopped/);
    expect(await posts(org)).toBe(1);
    await exactlyOnce(org, ["Flags While Applying"]);
  });
});

describe("SIGTERM (timeout, docker stop, systemd, a cancelled CI job)", HANGS_AFTER, () => {
  const held = inFlightSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });

  it("stops the run as Ctrl-C does: the answer waited for and recorded, --json and results written, exit 130", async () => {
    const org = await held().newOrg();
    const configDir = tempDir("shipctl-config-");
    const { path, titles } = rowsFile(3, { seed: 76, titlePrefix: "Terminated while applying" });
    const results = join(tempDir(), "results.csv");
    const { done, child } = await stopWhileApplying(org, ["shipment", "create", "--csv", path, "--json", "--results", results], "SIGTERM", configDir);
    await printed(child, /Terminated \(SIGTERM\): starting nothing new; requests already sent get up to 30 s to answer/);
    await org.control.releaseHeld();
    const stopped = await done;
    expect(stopped.signal, stopped.stderr).toBeNull();
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(JSON.parse(stopped.stdout).counts).toMatchObject({ created: 3 });
    expect(readFileSync(results, "utf8")).toMatch(/created/);
    await exactlyOnce(org, titles);

    const rerun = await runCli(["shipment", "create", "--csv", path], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toMatch(/in flight/);
    expect(await posts(org)).toBe(1);
  });
});

describe("a service whose created_at lags its Date header", HANGS_AFTER, () => {
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
      expect(JSON.parse(readFileSync(join(configDir, "state", "service-clock.json"), "utf8"))[org.url].created_at_lag_ms).toBeGreaterThanOrEqual(lag - 1000);

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
      // No answer: in flight until its settle time, which the run does not wait for (an answered 500 it would).
      await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after" });
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
