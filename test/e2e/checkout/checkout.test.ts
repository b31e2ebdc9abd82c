// shipctl checkout, the built binary against the sandbox, once per payment state and fault.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { collect, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedShipments, statusOf } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const CHECKOUT = { path: "/api/v1/checkout" };

async function orgWith(count: number): Promise<{ org: OrgTarget; ids: number[]; args: string[] }> {
  const org = await sb.newOrg();
  const ids = await seedShipments(org, count);
  return { org, ids, args: ids.map(String) };
}

async function posts(org: OrgTarget) {
  return org.control.requests({ method: "POST", ...CHECKOUT });
}

describe("shipctl checkout against the sandbox", () => {
  it("valid method: prices, pays, exit 0; the shipments are Confirmed and charged once at the priced amounts", async () => {
    const { org, ids, args } = await orgWith(2);
    const r = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ status: "paid", paid: ids, unpaid: [], unknown: [], rerun: null });
    expect(doc.sessions).toHaveLength(1);
    expect(Object.keys(doc.sessions[0].shipments).map(Number)).toEqual(ids);
    for (const id of ids) expect(await statusOf(org, id)).toBe(ShipmentStatus.Confirmed);
    const charges = await org.control.charges();
    expect(charges).toHaveLength(1);
    expect(charges[0]!.shipments).toEqual(doc.sessions[0].shipments);
    expect(charges[0]!.total).toBe(doc.total);
    expect(r.stderr).toMatch(/paid \$[\d,]+\.\d\d for 2 shipments/);
  });

  it("prints the price table on stdout for people", async () => {
    const { org, ids, args } = await orgWith(2);
    const r = await runCli(["checkout", ...args, "--yes"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^SESSION\s+ID\s+TITLE\s+PRICE$/m);
    expect(r.stdout).toMatch(new RegExp(`^1\\s+${ids[0]}\\s+Piece 1\\s+\\$[\\d,]+\\.\\d\\d$`, "m"));
    expect(r.stdout).toMatch(/Total \(2 shipments, 1 session\)\s+\$[\d,]+\.\d\d$/m);
  });

  it("12 shipments: two sessions (10 + 2), two charges; a rerun charges nothing more", async () => {
    const { org, ids, args } = await orgWith(12);
    const r = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.sessions.map((s: { shipments: object }) => Object.keys(s.shipments).length)).toEqual([10, 2]);
    expect((await org.control.charges()).map((c) => Object.keys(c.shipments).map(Number))).toEqual([ids.slice(0, 10), ids.slice(10)]);

    const again = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "nothing-to-pay", paid: [], already_paid: ids });
    expect(again.stderr).toContain(`12 shipments are already Confirmed (paid before this run): skipped: ${ids.slice(0, 5).join(", ")} and 7 more`);
    expect(await org.control.charges()).toHaveLength(2);
  });

  it("without a terminal and without --yes: exit 2 naming --yes, and not one request reaches the service", async () => {
    const { org, args } = await orgWith(1);
    await org.control.clearRequests();
    const r = await runCli(["checkout", ...args], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("pass --yes");
    expect(await org.control.requests()).toEqual([]);
  });

  it("a bad id is refused locally with exit 2", async () => {
    const { org } = await orgWith(0);
    const r = await runCli(["checkout", "12", "abc", "--yes"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('shipment id must be a positive whole number (got "abc")');
    expect(await org.control.requests()).toEqual([]);
  });

  it("--max-total below the total: exit 2 with both amounts, priced but never paid", async () => {
    const { org, args } = await orgWith(2);
    const r = await runCli(["checkout", ...args, "--yes", "--json", "--max-total", "1"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/total \$[\d,]+\.\d\d exceeds --max-total \$1\.00/);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "over-max-total", paid: [] });
    expect(await org.control.requests({ method: "GET", ...CHECKOUT })).toHaveLength(1);
    expect(await posts(org)).toHaveLength(0);
  });

  it("no payment method (403): exit 5, says to fix the payment method, nothing charged", async () => {
    const { org, ids, args } = await orgWith(2);
    await org.control.setPaymentMethod("none");
    const r = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain("No valid payment method");
    expect(r.stderr).toContain("payment method in the service's dashboard, then rerun");
    expect(r.stderr).toContain(`shipctl checkout ${ids.join(" ")} --yes`);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "payment-refused", paid: [], unpaid: ids });
    expect(await org.control.charges()).toEqual([]);
    expect(await statusOf(org, ids[0]!)).toBe(ShipmentStatus.Draft);
  });

  it("declined card (402): exit 5, no further session, and a second run also exits 5 (the method is invalidated)", async () => {
    const { org, args } = await orgWith(12);
    await org.control.setPaymentMethod("declining");
    const r = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain("The card was declined");
    expect(r.stderr).toContain("invalidated the payment method");
    expect(await posts(org)).toHaveLength(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.status).toBe("payment-refused");
    expect(doc.sessions.map((s: { outcome: string }) => s.outcome)).toEqual(["not-paid", "not-attempted"]);

    const again = await runCli(["checkout", ...args, "--yes"], { sandbox: org });
    expect(again.exitCode).toBe(5);
    expect(again.stderr).toContain("No valid payment method");
    expect(await org.control.charges()).toEqual([]);
  });

  it("a temporary failure (409) once: retried after --retry-wait, then paid; one charge", async () => {
    const { org, ids, args } = await orgWith(1);
    await org.control.setPaymentMethod("failing", 1);
    const r = await runCli(["checkout", ...args, "--yes", "--retry-wait", "0"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("payment failed temporarily (409): retrying in 0 s (attempt 1 of 3)\n");
    expect(await posts(org)).toHaveLength(2);
    expect(await org.control.charges()).toHaveLength(1);
    expect(await statusOf(org, ids[0]!)).toBe(ShipmentStatus.Confirmed);
  });

  it("409 that outlasts --retries 2: three attempts, exit 7 with the rerun command", async () => {
    const { org, ids, args } = await orgWith(1);
    await org.control.setPaymentMethod("failing", 5);
    const r = await runCli(["checkout", ...args, "--yes", "--json", "--retry-wait", "0", "--retries", "2"], { sandbox: org });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain("(attempt 2 of 2)");
    expect(r.stderr).toContain("still failed after 2 retries");
    expect(await posts(org)).toHaveLength(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "failed", unpaid: ids, rerun: `shipctl checkout ${ids[0]} --yes` });
    expect(await org.control.charges()).toEqual([]);
  });

  it("the answer to the payment is lost after it was applied: read back as paid, exit 0, exactly one charge", async () => {
    const { org, ids, args } = await orgWith(3);
    await org.control.fault({ method: "POST", path: "/api/v1/checkout", kind: "reset-after" });
    const r = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^payment of session 1: .*POST \/api\/v1\/checkout.*lost/m);
    expect(r.stderr).toContain("not sending it again (it may still be going through); reading its 3 shipments back in 2 s");
    expect(r.stderr).toContain("session 1 was paid");
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "paid", paid: ids });
    expect(await posts(org)).toHaveLength(1);
    expect(await org.control.charges()).toHaveLength(1);
    for (const id of ids) expect(await statusOf(org, id)).toBe(ShipmentStatus.Confirmed);
  });

  it("the payment is lost before it was applied: not sent again, exit 7 with the ids in flight; the rerun at once waits, then pays; one charge", async () => {
    const { org, ids, args } = await orgWith(2);
    const configDir = tempDir("shipctl-config-");
    await org.control.fault({ method: "POST", path: "/api/v1/checkout", kind: "reset-before" });
    const r = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org, configDir });
    expect(r.exitCode, r.stderr).toBe(7);
    const rerun = `shipctl checkout ${ids.join(" ")} --yes`;
    expect(r.stderr).toContain("was lost, and it was not sent again in this run");
    expect(r.stderr).toContain("0 paid, 2 not paid yet (still Draft), 0 could not be read");
    // Still a Draft proves nothing until the settle time: the shipments stay in flight, and the run says until when.
    expect(r.stderr).toContain(`Unknown: ${ids.join(", ")}`);
    expect(r.stderr).toMatch(/Rerun after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, when the payment in flight can no longer be going through/);
    expect(r.stderr).toContain(`\n  ${rerun}\n`);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ status: "failed", paid: [], unpaid: [], unknown: ids, rerun });
    expect(Date.parse(doc.settle_at)).toBeGreaterThan(0);
    expect(await posts(org)).toHaveLength(1);
    expect(await org.control.charges()).toEqual([]);
    for (const id of ids) expect(await statusOf(org, id)).toBe(ShipmentStatus.Draft);

    // The printed command, run at once: it settles the payment first (waiting until its settle time, since the
    // service shows nothing paid), finds the shipments still Drafts, and pays them once.
    const again = await runCli([...rerun.split(" ").slice(1), "--json"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("2 not paid by it (payable now)");
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "paid", paid: ids });
    expect(await posts(org)).toHaveLength(2);
    expect(await org.control.charges()).toHaveLength(1);
    for (const id of ids) expect(await statusOf(org, id)).toBe(ShipmentStatus.Confirmed);
  });

  it("lost on session 2 of 3 after session 1 was paid: exit 8, session 3 not attempted; the rerun pays the rest once", async () => {
    const { org, ids, args } = await orgWith(21);
    // Faults apply in the order queued: a no-op one lets the first payment through, the second is lost unapplied.
    await org.control.fault({ method: "POST", path: "/api/v1/checkout", kind: "latency", ms: 0 });
    await org.control.fault({ method: "POST", path: "/api/v1/checkout", kind: "reset-before" });
    const r = await runCli(["checkout", ...args, "--yes", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    const rest = ids.slice(10);
    const rerun = `shipctl checkout ${rest.join(" ")} --yes`;
    expect(r.stderr).toContain("paid 10 of 21 shipments, then stopped: the answer to the payment of session 2 was lost");
    expect(r.stderr).toContain("no further session was attempted");
    expect(r.stderr).toContain(`\n  ${rerun}\n`);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ status: "partly-paid", paid: ids.slice(0, 10), unpaid: ids.slice(20), unknown: ids.slice(10, 20), rerun });
    expect(doc.sessions.map((s: { outcome: string }) => s.outcome)).toEqual(["paid", "unknown", "not-attempted"]);
    expect(await posts(org)).toHaveLength(2);

    const again = await runCli([...rerun.split(" ").slice(1), "--json"], { sandbox: org });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "paid", paid: rest });
    // Every shipment charged exactly once over both runs.
    const charged = (await org.control.charges()).flatMap((c) => Object.keys(c.shipments).map(Number));
    expect(charged.sort((a, b) => a - b)).toEqual(ids);
  });

  it("Ctrl-C during the 409 wait: exit 130 at once, nothing paid, the rerun command shown", async () => {
    const { org, ids, args } = await orgWith(1);
    await org.control.setPaymentMethod("failing", 1);
    const child = spawnCli(["checkout", ...args, "--yes"], { sandbox: org });
    const result = collect(child);
    // Interrupt once the 60 s wait has begun (the wait is longer than collect's own time limit).
    await new Promise<void>((resolve) => {
      child.stderr!.on("data", (d: string) => {
        if (String(d).includes("retrying in 60 s")) resolve();
      });
    });
    child.kill("SIGINT");
    const r = await result;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain("interrupted before session 1 was paid");
    expect(r.stderr).toContain(`shipctl checkout ${ids[0]} --yes`);
    expect(await posts(org)).toHaveLength(1);
    expect(await org.control.charges()).toEqual([]);
  });
});
