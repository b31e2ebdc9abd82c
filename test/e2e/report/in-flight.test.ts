// An upload the service is still applying when its run stops (issue 10): the rerun started at once must not send it
// again. The sandbox's hold fault holds the whole body, then applies it when the test releases it, whether or not the
// client is still there; the tests wait for the request log to say the body is held before stopping the CLI. Nothing
// here waits on a clock: each step waits on the state it needs (the log, the ledger on disk, what the CLI prints).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { collect, fixture, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { HOLD_APPLY_MAX_MS, printed } from "../../helpers/slow-apply.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { inputRecords, onlyInputRecord, stateDirOf } from "../../helpers/ledger.js";
import { shipmentReadyFor } from "./setup.js";

const WAIT = { timeout: 20_000, interval: 20 };

let sb: TestSandbox;
beforeAll(async () => {
  // A bound far beyond any step of a test, so a request held until the test releases it never breaks it.
  sb = await startTestSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });
});
afterAll(() => sb.close());

const folder = fixture("photos/nested");
/** The text of the runs' records in the organization's ledger (in `<configDir>/state`); "" before the first is written. */
const recordsOf = (configDir: string) => inputRecords(stateDirOf(configDir)).join("\n");
const posts = async (org: OrgTarget, id: number) => (await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` })).length;
const reads = async (org: OrgTarget, id: number) => (await org.control.requests({ method: "GET", path: `/api/v1/shipments/${id}` })).length;

/** Starts a single upload under a hold fault and resolves once the sandbox holds its whole body. */
async function uploadHeld(org: OrgTarget, id: number, configDir: string) {
  await org.control.fault({ method: "POST", path: `/api/v1/reports/${id}/1`, kind: "hold" });
  const child = spawnCli(["report", "upload", String(id), folder, "--set", "1", "--json"], { sandbox: org, configDir });
  const done = collect(child);
  await vi.waitFor(async () => {
    const [post] = await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` });
    expect(post?.note).toMatch(/^slow-apply: body read/);
  }, WAIT);
  return { child, done };
}

/** The settle time the ledger recorded when the upload's last byte left. */
function recordedSettleAt(configDir: string): Date {
  const sent = recordsOf(configDir).split("\n").filter((l) => l.includes('"sent_at"')).map((l) => JSON.parse(l) as { settle_at: string });
  expect(sent).toHaveLength(1);
  return new Date(sent[0]!.settle_at);
}

describe("an upload still being applied when its run stops", () => {
  it("SIGKILL, rerun at once: it waits and finds the report stored, sends nothing; a later rerun sends nothing either", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const configDir = tempDir("shipctl-config-");
    const { child, done } = await uploadHeld(org, id, configDir);
    child.kill("SIGKILL");
    expect((await done).signal).toBe("SIGKILL");
    // The ledger was written before the body's last byte left: in flight, with when it left and its settle time.
    recordedSettleAt(configDir);
    const readsBefore = await reads(org, id);

    // Released once the rerun has read the shipment back, not found the report, and said that it waits.
    const again = spawnCli(["report", "upload", String(id), folder, "--set", "1", "--json"], { sandbox: org, configDir });
    const rerunDone = collect(again, 60_000);
    await printed(again, /it may still be applying it until/);
    await org.control.releaseHeld();
    const rerun = await rerunDone;
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain("1 upload was in flight when an earlier run stopped");
    expect(JSON.parse(rerun.stdout)).toMatchObject({ result: "skipped", message: expect.stringContaining("already stored") });
    // Read more than once: the sandbox had not applied it yet at the first read, so the run said so and waited.
    expect((await reads(org, id)) - readsBefore).toBeGreaterThan(1);
    expect(await posts(org, id)).toBe(1);
    expect(await org.control.reports()).toHaveLength(1);

    // Nothing is in flight any more: the ledger says stored, the shipment confirms it.
    const later = await runCli(["report", "upload", String(id), folder, "--set", "1", "--json"], { sandbox: org, configDir });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(JSON.parse(later.stdout).result).toBe("skipped");
    expect(later.stderr).not.toContain("in flight");
    expect(await posts(org, id)).toBe(1);
    expect(await org.control.reports()).toHaveLength(1);
  }, 90_000); // Four runs of the CLI, each fitting 12 photos: 7 s on a quiet machine, over 30 s with both cores busy.

  it("Ctrl-C: the run waits for the upload's answer and records it (exit 130); the rerun sends nothing", async () => {
    const org = await sb.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const configDir = tempDir("shipctl-config-");
    const { child, done } = await uploadHeld(org, id, configDir);
    // The report is stored only once the run has taken the Ctrl-C and waits for its answer.
    const waiting = printed(child, /requests already sent get up to 30 s to answer|uploads already sending get up to/);
    child.kill("SIGINT");
    await waiting;
    await org.control.releaseHeld();
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain("the upload already under way was let finish, and is recorded");
    expect(JSON.parse(r.stdout).result).toBe("stored");
    // It stayed connected while the sandbox held it and got the answer.
    expect((await org.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` }))[0]).toMatchObject({ status: 201 });
    expect(onlyInputRecord(configDir)).toMatch(new RegExp(`"row":"${id}/1","state":"stored"`));

    const rerun = await runCli(["report", "upload", String(id), folder, "--set", "1", "--json"], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ result: "skipped", message: expect.stringContaining("already stored (ledger") });
    expect(await posts(org, id)).toBe(1);
    expect(await org.control.reports()).toHaveLength(1);
  });
});

describe("--no-wait", () => {
  // The sandbox declares a long apply bound here, so the report is in flight for a minute after its last byte left.
  let slow: TestSandbox;
  beforeAll(async () => {
    slow = await startTestSandbox({ applyMaxMs: 60_000 });
  });
  afterAll(() => slow.close());

  it("with a report in flight: exit 7 at once, naming the time after which a rerun settles it; nothing sent", async () => {
    const org = await slow.newOrg();
    const id = await shipmentReadyFor(org, 1);
    const configDir = tempDir("shipctl-config-");
    // The sandbox waits before handling the upload, and drops it unapplied once its client is gone.
    await org.control.fault({ method: "POST", path: `/api/v1/reports/${id}/1`, kind: "latency", ms: 20_000 });
    const child = spawnCli(["report", "upload", String(id), folder, "--set", "1"], { sandbox: org, configDir });
    const done = collect(child);
    await vi.waitFor(() => expect(recordsOf(configDir)).toContain('"sent_at"'), WAIT);
    child.kill("SIGKILL");
    await done;
    const settleAt = recordedSettleAt(configDir);
    // Said rounded up to the second: a rerun at the time said is past the settle time, never just before it.
    const when = `${new Date(Math.ceil(settleAt.getTime() / 1000) * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`;

    const r = await runCli(["report", "upload", String(id), folder, "--set", "1", "--no-wait", "--json"], { sandbox: org, configDir });
    expect(r.exitCode, r.stderr).toBe(7);
    expect(r.stderr).toContain(`the service may still be applying it until ${when}`);
    expect(r.stderr).toContain(`shipctl report upload ${id} ${folder} --set 1 --no-wait`);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: "unknown", settle_at: settleAt.toISOString() });
    expect(await posts(org, id)).toBe(1);
    expect(await org.control.reports()).toHaveLength(0);
  });
});
