// shipctl checkout stopped while the service is still applying its payment (the sandbox's hold fault, which applies it
// when the test releases it): killed or interrupted, then run again at once and again later. Each shipment is charged
// once, and nothing is priced or paid again while the first payment may still be going through. Nothing here waits on
// a clock: each step waits on the sandbox's own log of where the request stands, or on what the CLI prints.
import { describe, expect, it } from "vitest";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { type OrgTarget } from "../../helpers/sandbox.js";
import { seedShipments, statusOf } from "../../helpers/seed.js";
import { HOLD_APPLY_MAX_MS, applied, bodyRead, inFlightSandbox, printed, settleAtIn } from "../../helpers/slow-apply.js";
import { stateDirOf } from "../../helpers/ledger.js";

const sandbox = inFlightSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS });

/** A bound on a test that hangs, not a measure of it: each test runs the CLI three times, waiting on nothing but the sandbox and the CLI. */
const HANGS_AFTER = { timeout: 120_000 };

const PAY = { method: "POST", path: "/api/v1/checkout" };
const PRICE = { method: "GET", path: "/api/v1/checkout" };

async function heldPayment(count: number): Promise<{ org: OrgTarget; ids: number[]; args: string[]; configDir: string }> {
  const org = await sandbox().newOrg();
  const ids = await seedShipments(org, count);
  await org.control.fault({ ...PAY, kind: "hold" });
  return { org, ids, args: ids.map(String), configDir: tempDir("shipctl-config-") };
}

/** Runs `args` while the payment is held, and releases it once the run has read the shipments back and found it not applied yet. */
async function rerunReleasing(org: OrgTarget, args: string[], configDir: string) {
  const child = spawnCli(args, { sandbox: org, configDir });
  const rerun = collect(child, HANGS_AFTER.timeout);
  await printed(child, /not found yet; reading back again/);
  await org.control.releaseHeld();
  return rerun;
}


describe("checkout killed (SIGKILL) while the service is still applying the payment", HANGS_AFTER, () => {
  it("the rerun at once settles it (paid) before pricing anything, and charges nothing; a later rerun sends nothing", async () => {
    const { org, ids, args, configDir } = await heldPayment(2);
    const child = spawnCli(["checkout", ...args, "--yes"], { sandbox: org, configDir });
    const killed = collect(child, HANGS_AFTER.timeout);
    await bodyRead(org, PAY);
    child.kill("SIGKILL");
    expect((await killed).signal).toBe("SIGKILL");

    const again = await rerunReleasing(org, ["checkout", ...args, "--yes", "--json"], configDir);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(`A payment an earlier run sent for shipments ${ids.join(", ")} never had its answer`);
    expect(again.stderr).toContain("2 paid by it.");
    expect(again.stderr).toContain(`2 shipments are already Confirmed (paid by an earlier run's payment whose answer was lost): skipped: ${ids.join(" and ")}`);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "nothing-to-pay", paid: [], unknown: [], already_paid: ids });
    // Priced and paid once, by the killed run only.
    expect(await org.control.requests(PRICE)).toHaveLength(1);
    expect(await org.control.requests(PAY)).toHaveLength(1);
    expect(await org.control.charges()).toHaveLength(1);

    const later = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org, configDir });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(later.stderr).not.toContain("earlier run sent");
    expect(JSON.parse(later.stdout)).toMatchObject({ status: "nothing-to-pay", already_paid: ids });
    expect(await org.control.requests(PAY)).toHaveLength(1);
    expect(await org.control.charges()).toHaveLength(1);
  });

  it("--no-wait on the rerun at once: exit 7 naming the settle time, nothing priced or paid; the printed rerun settles it", async () => {
    const { org, ids, args, configDir } = await heldPayment(1);
    const child = spawnCli(["checkout", ...args, "--yes"], { sandbox: org, configDir });
    const killed = collect(child, HANGS_AFTER.timeout);
    await bodyRead(org, PAY);
    child.kill("SIGKILL");
    await killed;
    const settleAt = new Date(settleAtIn(stateDirOf(configDir)));
    // Said rounded up to the second: a rerun at the time said is past the settle time, never just before it.
    const until = `${new Date(Math.ceil(settleAt.getTime() / 1000) * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`;

    // Still held: the rerun finds the payment in flight however long it took to start.
    const again = await runCli(["checkout", ...args, "--yes", "--json", "--no-wait"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(7);
    expect(again.stderr).toContain(`shipment ${ids[0]}: a payment an earlier run sent may still be going through until ${until}: not priced or paid now`);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "failed", unknown: ids, settle_at: settleAt.toISOString(), rerun: `shipctl checkout ${ids[0]} --yes` });
    expect(await org.control.requests(PRICE)).toHaveLength(1);

    await org.control.releaseHeld();
    await applied(org, PAY);

    const rerun = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org, configDir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ status: "nothing-to-pay", already_paid: ids });
    expect(await org.control.charges()).toHaveLength(1);
    expect(await org.control.requests(PAY)).toHaveLength(1);
  });
});

describe("checkout interrupted (Ctrl-C) while the service is still applying the payment", HANGS_AFTER, () => {
  it("waits for the payment's answer and records it, exit 130; the rerun pays nothing", async () => {
    const { org, ids, args, configDir } = await heldPayment(2);
    const child = spawnCli(["checkout", ...args, "--yes", "--json"], { sandbox: org, configDir });
    const result = collect(child, HANGS_AFTER.timeout);
    await bodyRead(org, PAY);
    // The payment is applied only once the run has taken the Ctrl-C and waits for its answer.
    const waiting = printed(child, /requests already sent get up to 30 s to answer/);
    child.kill("SIGINT");
    await waiting;
    await org.control.releaseHeld();
    const r = await result;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain("Interrupted: starting nothing new; requests already sent get up to 30 s to answer");
    expect(r.stderr).toContain("interrupted; the payment already sent was answered before the run stopped: paid $");
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "interrupted", paid: ids, unknown: [] });
    for (const id of ids) expect(await statusOf(org, id)).toBe(ShipmentStatus.Confirmed);
    // Answered, not abandoned: the sandbox sent its 204.
    expect((await org.control.requests(PAY))[0]).toMatchObject({ status: 204 });

    const again = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("earlier run sent");
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "nothing-to-pay", already_paid: ids });
    expect(await org.control.requests(PAY)).toHaveLength(1);
    expect(await org.control.charges()).toHaveLength(1);
  });
});

describe("checkout --help", () => {
  it("names --no-wait, the ledger and what in flight means", async () => {
    const r = await runCli(["checkout", "--help"]);
    expect(r.exitCode, r.stderr).toBe(0);
    for (const text of ["--no-wait", "organization's ledger in the state folder", "\"in flight\"", "settle time", "waits up to 5 s"]) expect(r.stdout).toContain(text);
  });
});
