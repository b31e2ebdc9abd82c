// Uploads an earlier run left in flight are settled before anything is sent: found stored (skipped), past their
// settle time and not found (sent again), or still in flight (waited for, or with --no-wait and Ctrl-C reported
// unknown with the time a rerun settles them, and never sent).
import { beforeEach, describe, expect, it } from "vitest";
import { ExitCode } from "../../../src/errors.js";
import { InputLedger, type RowState } from "../../../src/ledger/input-ledger.js";
import { settleWindowFor } from "../../../src/ledger/settle-window.js";
import { reportUploadCommand } from "../../../src/commands/report/report-upload.js";
import { runVerb } from "../../helpers/run-verb.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { batchDepsFor, batchOf, reportState, StatusService } from "./batch-deps.js";

const NOW = new Date("2025-03-02T12:00:00Z");
beforeEach(() => {
  reportState.dir = tempDir("shipctl-state-");
});
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

/** Records shipment 1's set 1 as `state` in the ledger, as a run of the batch `root` left it. */
async function recordedBy(root: string, state: RowState): Promise<void> {
  const ledger = await InputLedger.open({ SHIPCTL_STATE_DIR: reportState.dir }, {
    kind: "report-upload",
    source: root,
    target: { baseUrl: "http://x", token: "t" },
    window: settleWindowFor({ baseUrl: "http://x", env: {} }),
  });
  await ledger.record([["1/1", state]]);
  await ledger.close();
}

/** A ledger as a run killed mid-upload leaves it: shipment 1's upload sent whole at NOW - 10 s, settled at NOW + 60 s. */
function leftInFlight(root: string, state: Partial<RowState> = {}): Promise<void> {
  return recordedBy(root, { state: "in_flight", at: at(-12_000), attempt: 1, settle_at: at(60_000), await_sent: true, sent_at: at(-10_000), ...state } as RowState);
}

/** A clock that moves only when the run sleeps; `onSleep` sees each wait. */
function movingClock(onSleep: (ms: number) => void = () => undefined) {
  let now = NOW.getTime();
  return {
    now: () => new Date(now),
    sleep: async (ms: number, signal?: AbortSignal) => {
      onSleep(ms);
      if (signal?.aborted) throw signal.reason;
      now += ms;
    },
  };
}

const results = (stdout: string) => (JSON.parse(stdout) as { results: Array<{ shipment_id: number; result: string; message: string; settle_at: string | null }> }).results;

describe("uploads an earlier run left in flight", () => {
  it("found stored: skipped as already stored, never sent; the rest of the batch goes on", async () => {
    const root = batchOf([1, 2]);
    await leftInFlight(root);
    const api = new StatusService();
    api.status.set(1, 8);
    const { deps, io } = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([2]);
    expect(results(io.stdout())[0]).toMatchObject({ shipment_id: 1, result: "skipped", message: expect.stringContaining("already stored") });
    expect(io.stderr()).toContain("1 upload was in flight when an earlier run stopped");
    expect(io.stderr()).toContain("1 found stored, 0 proven not stored (to be sent), 0 still unknown (not sent)");
  });

  it("--no-wait before its settle time: unknown (exit 8 beside a stored one), with the time a rerun settles it; not sent", async () => {
    const root = batchOf([1, 2]);
    await leftInFlight(root);
    const api = new StatusService();
    const { deps, io } = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root, "--no-wait"], deps)).toBe(ExitCode.Partial);
    expect(api.uploads).toEqual([2]);
    expect(results(io.stdout())[0]).toMatchObject({ result: "unknown", settle_at: at(60_000), message: expect.stringContaining("until 2025-03-02 12:01:00 UTC") });
    expect(io.stderr()).toContain("1 stored, 1 unknown (in flight: not sent again)");
    expect(io.stderr()).toContain(`run the same command again after 2025-03-02 12:01:00 UTC:\n  shipctl report upload --batch ${root} --set 1 --no-wait`);
    // Alone in its run, it is exit 7 (in a state folder of its own: the organization's ledger above already holds
    // report 1/1 in flight, whichever batch sent it).
    reportState.dir = tempDir("shipctl-state-");
    const alone = batchOf([1]);
    await leftInFlight(alone);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", alone, "--no-wait"], batchDepsFor(new StatusService(), NOW).deps)).toBe(ExitCode.Unavailable);
  });

  it("waits (a line per read-back without a terminal) until it shows up, then skips it", async () => {
    const root = batchOf([1]);
    await leftInFlight(root);
    const api = new StatusService();
    // The service finishes applying it while the run waits.
    const clock = movingClock(() => api.status.set(1, 8));
    const { deps, io } = batchDepsFor(api, NOW, { clock });
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([]);
    expect(api.reads.filter((id) => id === 1).length).toBeGreaterThanOrEqual(2);
    expect(io.stderr()).toContain("it may still be applying it until 12:01:00 UTC. Waiting and reading back now and then");
    expect(results(io.stdout())[0]?.result).toBe("skipped");
  });

  it("not found after its settle time: not applied, so sent now", async () => {
    const root = batchOf([1]);
    await leftInFlight(root);
    const api = new StatusService();
    const { deps, io } = batchDepsFor(api, NOW, { clock: movingClock() });
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([1]);
    expect(io.stderr()).toContain("0 found stored, 1 proven not stored (to be sent)");
  });

  it("one whose last byte never left was not applied: sent again at once, without reading back or waiting", async () => {
    const root = batchOf([1]);
    await leftInFlight(root, { sent_at: undefined, at: new Date().toISOString() });
    const api = new StatusService();
    const { deps, io } = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([1]);
    expect(io.stderr()).not.toContain("in flight when an earlier run stopped");
  });

  it("Ctrl-C while waiting: exit 130, reported unknown with its settle time, nothing sent", async () => {
    const root = batchOf([1, 2]);
    await leftInFlight(root);
    const api = new StatusService();
    const stop = new AbortController();
    const clock = movingClock(() => stop.abort(new Error("interrupted")));
    const { deps, io } = batchDepsFor(api, NOW, { clock, signal: stop.signal });
    await expect(runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).rejects.toMatchObject({ exitCode: ExitCode.Interrupted });
    expect(api.uploads).toEqual([]);
    expect(results(io.stdout()).map((r) => `${r.shipment_id} ${r.result}`)).toEqual(["1 unknown", "2 interrupted"]);
  });

  it("one ledger per organization: a report another batch left in flight is not sent by this one (unknown, naming it); the rest go on", async () => {
    const other = batchOf([1]);
    await leftInFlight(other);
    const root = batchOf([1, 2]);
    const api = new StatusService();
    const { deps, io } = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).toBe(ExitCode.Partial);
    expect(api.uploads).toEqual([2]);
    expect(results(io.stdout())[0]).toMatchObject({
      shipment_id: 1,
      result: "unknown",
      settle_at: at(60_000),
      message: expect.stringContaining(`another run's upload of it (${other}) is in flight`),
    });
  });

  it("one ledger per organization: a report another batch claims between its read and its upload is not sent (unknown); the rest go on", async () => {
    const other = batchOf([1]);
    const api = new StatusService();
    const read = api.getShipment.bind(api);
    // Another batch's run claims shipment 1's report while this run reads the shipment.
    api.getShipment = async (id) => {
      const shipment = await read(id);
      if (id === 1) await leftInFlight(other);
      return shipment;
    };
    const { deps, io } = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", batchOf([1, 2]), "--concurrency", "1"], deps)).toBe(ExitCode.Partial);
    expect(api.uploads).toEqual([2]);
    expect(results(io.stdout())[0]).toMatchObject({ shipment_id: 1, result: "unknown", message: expect.stringContaining(`another run's upload of it (${other}) is in flight`) });
  });

  it("one ledger per organization: a report another batch recorded as stored that its shipment contradicts is sent, and recorded stored", async () => {
    const other = batchOf([1]);
    await recordedBy(other, { state: "stored", id: 1, at: at(-60_000) });
    const root = batchOf([1]);
    const api = new StatusService();
    const { deps, io } = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", root], deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([1]);
    expect(io.stderr()).toContain("the ledger says set 1 was stored");
    expect(results(io.stdout())[0]).toMatchObject({ shipment_id: 1, result: "stored" });
    // A third batch finds it stored, confirmed by the shipment's read, and sends nothing.
    const third = batchDepsFor(api, NOW);
    expect(await runVerb(reportUploadCommand, ["--set", "1", "--batch", batchOf([1])], third.deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([1]);
    expect(results(third.io.stdout())[0]).toMatchObject({ shipment_id: 1, result: "skipped", message: expect.stringContaining("already stored (ledger, ") });
  });

  it("a single upload settles its own ledger's in-flight row the same way", async () => {
    const configDir = tempDir("shipctl-config-");
    const ledger = await InputLedger.open({ SHIPCTL_STATE_DIR: reportState.dir }, {
      kind: "report-upload",
      source: "report upload",
      target: { baseUrl: "http://x", token: "t" },
      window: settleWindowFor({ baseUrl: "http://x", env: {} }),
    });
    await ledger.record([["5/1", { state: "in_flight", at: at(-12_000), attempt: 1, settle_at: at(60_000), await_sent: true, sent_at: at(-10_000) }]]);
    await ledger.close();
    const api = new StatusService();
    const { deps } = batchDepsFor(api, NOW, { configDir });
    await expect(runVerb(reportUploadCommand, ["5", fixture("photos/nested"), "--set", "1", "--no-wait"], deps)).rejects.toMatchObject({
      exitCode: ExitCode.Unavailable,
      message: expect.stringContaining("may still be applying it until 2025-03-02 12:01:00 UTC"),
      hint: expect.stringContaining(`shipctl report upload 5 ${fixture("photos/nested")} --set 1 --no-wait`),
    });
    expect(api.uploads).toEqual([]);
    api.status.set(5, 8);
    expect(await runVerb(reportUploadCommand, ["5", fixture("photos/nested"), "--set", "1"], batchDepsFor(api, NOW, { configDir }).deps)).toBe(ExitCode.Ok);
    expect(api.uploads).toEqual([]);
  });
});
