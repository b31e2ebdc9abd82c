// Checkout through the ledger: each payment recorded in the checkout ledger before it is sent and its outcome after, and
// every run settling what an earlier run left in flight before it reads, prices or pays anything.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkoutCommand } from "../../../src/commands/checkout/checkout.js";
import { ExitCode } from "../../../src/errors.js";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { runVerb } from "../../helpers/run-verb.js";
import { checkoutRecordPath, exitOf, fakeService, harness, type FakeService } from "./fake.js";

const posts = (calls: string[]) => calls.filter((c) => c.startsWith("POST"));
const prices = (calls: string[]) => calls.filter((c) => c.startsWith("GET /checkout"));

/** The ledger's records, as written (header first). */
function recordLines(configDir: string): Array<Record<string, unknown>> {
  const text = readFileSync(checkoutRecordPath({ SHIPCTL_CONFIG_DIR: configDir }, "http://127.0.0.1:1"), "utf8");
  return text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * A run whose payment is sent and whose answer is lost, stopped (Ctrl-C) during the pause before reading back: the
 * payment stays in flight in the ledger, as after a kill. The service's first POST must be scripted "lost-before".
 */
async function leaveInFlight(svc: FakeService, ids: number[], configDir?: string): Promise<string> {
  const h = harness(svc, { configDir, onSleep: (_ms, self) => self.controller.abort(new Error("interrupted")) });
  const r = await exitOf(runVerb(checkoutCommand, [...ids.map(String), "--yes"], h.deps));
  expect(r.code).toBe(ExitCode.Interrupted);
  expect(r.error?.message).toContain("it may have been charged");
  return h.configDir;
}

/** The service finishes applying a payment whose client is gone. */
function applyNow(svc: FakeService, ids: number[]): void {
  for (const id of ids) svc.shipments.get(id)!.status = ShipmentStatus.Confirmed;
  svc.charges.push([...ids]);
}

describe("checkout: the ledger records every payment", () => {
  it("in flight before the POST (the ids, the confirmed total, the settle time), paid after the 204", async () => {
    const svc = fakeService([1, 2]);
    const h = harness(svc);
    let atPost: Array<Record<string, unknown>> = [];
    svc.beforePost = () => void (atPost = recordLines(h.configDir));
    expect((await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes"], h.deps))).code).toBe(0);
    expect(atPost[0]).toMatchObject({ shipctl_ledger: 3, kind: "checkout" });
    expect(atPost.at(-1)).toMatchObject({
      rows: ["1", "2"],
      state: "in_flight",
      at: "2026-01-05T10:00:00.000Z",
      settle_at: "2026-01-05T10:00:05.000Z",
      sent: [{ shipments: [1, 2], total: 2003 }, { shipments: [1, 2], total: 2003 }],
    });
    expect(recordLines(h.configDir).at(-1)).toMatchObject({ rows: ["1", "2"], state: "paid" });
  });

  it("a refusal that charged nothing (402) is recorded not paid: the next run settles nothing and pays", async () => {
    const svc = fakeService([1], ["402"]);
    const h = harness(svc);
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps))).code).toBe(ExitCode.Payment);
    expect(recordLines(h.configDir).at(-1)).toMatchObject({ row: "1", state: "failed", error: expect.stringContaining("402") });
    const again = harness(svc, { configDir: h.configDir });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], again.deps))).code).toBe(0);
    expect(again.clock.waits).toEqual([]);
    expect(again.io.stderr()).not.toContain("earlier run");
    expect(svc.charges).toEqual([[1]]);
  });
  it("does not grow with every shipment ever paid: settled rows are forgotten when the ledger is next opened", async () => {
    const svc = fakeService([1, 2], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [1]);
    const h = harness(svc, { configDir, globals: { json: true } });
    expect((await exitOf(runVerb(checkoutCommand, ["2", "--yes", "--no-wait"], h.deps))).code).toBe(0);
    const rows = (configDir: string) => recordLines(configDir).filter((l) => "row" in l || "rows" in l);
    expect(rows(configDir).map((l) => [l.row ?? l.rows, l.state])).toEqual([
      ["1", "in_flight"],
      ["2", "in_flight"],
      ["2", "paid"],
    ]);
    const third = harness(svc, { configDir });
    expect((await exitOf(runVerb(checkoutCommand, ["2", "--yes", "--no-wait"], third.deps))).code).toBe(0);
    // Shipment 2's row is gone; shipment 1's payment is still in flight, and kept.
    expect(rows(configDir).map((l) => [l.row ?? l.rows, l.state])).toEqual([["1", "in_flight"]]);
  });
});

describe("checkout: a payment an earlier run left in flight is settled before anything is priced", () => {
  it("applied by the service meanwhile: found paid, skipped as already paid; nothing priced or paid again", async () => {
    const svc = fakeService([1, 2], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [1, 2]);
    applyNow(svc, [1, 2]);
    const again = harness(svc, { configDir, globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes"], again.deps));
    expect(r.code, again.io.stderr()).toBe(0);
    expect(again.io.stderr()).toContain("A payment an earlier run sent for shipments 1, 2 never had its answer; reading the shipments back");
    expect(again.io.stderr()).toContain("2 paid by it.");
    expect(again.io.stderr()).toContain("2 shipments are already Confirmed (paid by an earlier run's payment whose answer was lost): skipped: 1 and 2");
    expect(JSON.parse(again.io.stdout())).toMatchObject({ status: "nothing-to-pay", paid: [], unknown: [], already_paid: [1, 2], settle_at: null });
    expect(again.clock.waits).toEqual([]);
    expect(prices(svc.calls)).toHaveLength(1);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.charges).toEqual([[1, 2]]);
    expect(recordLines(configDir).at(-1)).toMatchObject({ rows: ["1", "2"], state: "paid" });
  });

  it("applied while the rerun waits: the countdown ends when it shows paid; nothing paid again", async () => {
    const svc = fakeService([1], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [1]);
    // The service finishes the payment during the rerun's first wait.
    const again = harness(svc, { configDir, onSleep: () => svc.shipments.get(1)!.status !== ShipmentStatus.Confirmed && applyNow(svc, [1]) });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], again.deps))).code).toBe(0);
    expect(again.clock.waits).toEqual([2000]);
    expect(again.io.stderr()).toContain("1 shipment payment was sent by an earlier run whose answer never came");
    expect(again.io.stderr()).toContain("not found yet; reading back again in 2s");
    expect(again.io.stderr()).toContain("1 paid by it.");
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.charges).toEqual([[1]]);
  });

  it("--no-wait: still in flight, so exit 7 at once, nothing priced or paid, saying until when; the rerun command is for after then", async () => {
    const svc = fakeService([1], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [1]);
    const again = harness(svc, { configDir, globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes", "--no-wait"], again.deps));
    expect(r.code).toBe(ExitCode.Unavailable);
    expect(again.clock.waits).toEqual([]);
    expect(again.io.stderr()).toContain("shipment 1: a payment an earlier run sent may still be going through until 2026-01-05 10:00:05 UTC: not priced or paid now");
    expect(r.error?.message).toBe("shipment 1 may still be being paid by an earlier run's payment, so it was not paid again (that payment can go through until 2026-01-05 10:00:05 UTC)");
    expect(r.error?.hint).toContain("Unknown: 1");
    expect(r.error?.hint).toContain("Rerun after 2026-01-05 10:00:05 UTC");
    expect(JSON.parse(again.io.stdout())).toMatchObject({
      status: "failed",
      paid: [],
      unknown: [1],
      settle_at: "2026-01-05T10:00:05.000Z",
      rerun: "shipctl checkout 1 --yes",
    });
    expect(prices(svc.calls)).toHaveLength(1);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.charges).toEqual([]);
  });

  it("the others are paid meanwhile: exit 8, the one in flight reported unknown", async () => {
    const svc = fakeService([1, 2, 3], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [1]);
    const again = harness(svc, { configDir, globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "3", "--yes", "--no-wait"], again.deps));
    expect(r.code).toBe(ExitCode.Partial);
    expect(prices(svc.calls).at(-1)).toBe("GET /checkout 2,3");
    expect(svc.charges).toEqual([[2, 3]]);
    expect(r.error?.message).toContain("paid 2 of 3 shipments; shipment 1 may still be being paid by an earlier run's payment");
    expect(JSON.parse(again.io.stdout())).toMatchObject({ status: "partly-paid", paid: [2, 3], unknown: [1], rerun: "shipctl checkout 1 --yes" });
  });

  it("--confirm-total with one shipment left out while its payment is in flight: refused, saying why the total differs", async () => {
    const svc = fakeService([1, 2, 3], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [1]);
    const again = harness(svc, { configDir });
    // A total quoted for all three, before shipment 1's payment was lost: the total of 2 and 3 cannot equal it.
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "3", "--yes", "--no-wait", "--confirm-total", "999.99"], again.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.error?.hint).toContain("1 shipment (1) left out while an earlier payment may still be going through, so this is not the quoted total");
    expect(svc.charges).toEqual([]);
  });

  it("a payment in flight for shipments not named is settled too, without waiting", async () => {
    const svc = fakeService([1, 7, 8], ["lost-before", "lost-before"]);
    let configDir = await leaveInFlight(svc, [7]);
    configDir = await leaveInFlight(svc, [8], configDir);
    applyNow(svc, [7]);
    const again = harness(svc, { configDir });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], again.deps))).code).toBe(0);
    expect(again.clock.waits).toEqual([]);
    expect(again.io.stderr()).toContain(
      "An earlier checkout's payment of 2 shipments not named here (7, 8) had lost its answer: 1 paid, 1 may still be going through until " +
        "2026-01-05 10:00:05 UTC; `shipctl checkout 8` settles it.",
    );
    expect(svc.charges).toEqual([[7], [1]]);
    // Shipment 7 is settled in the ledger: a checkout of it reads it as any shipment paid before.
    const third = harness(svc, { configDir });
    expect((await exitOf(runVerb(checkoutCommand, ["7", "--yes"], third.deps))).code).toBe(0);
    expect(third.io.stderr()).toContain("shipment 7 is already Confirmed (paid before this run): skipped");
  });

  it("run with --profile, the command that settles another shipment's payment names it: the ids are that service's", async () => {
    const svc = fakeService([1, 8], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [8]);
    const again = harness(svc, { configDir, globals: { profile: "north" } });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], again.deps))).code).toBe(0);
    expect(again.io.stderr()).toContain("`shipctl checkout 8 --profile north` settles it.");
  });

  it("Ctrl-C while waiting for it: exit 130, nothing priced or paid", async () => {
    const svc = fakeService([1], ["lost-before"]);
    const configDir = await leaveInFlight(svc, [1]);
    const again = harness(svc, { configDir, onSleep: (_ms, self) => self.controller.abort(new Error("interrupted")) });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], again.deps));
    expect(r.code).toBe(ExitCode.Interrupted);
    expect(r.error?.message).toBe("interrupted while waiting for an earlier payment to settle: nothing was priced or paid");
    expect(prices(svc.calls)).toHaveLength(1);
    expect(posts(svc.calls)).toHaveLength(1);
  });
});

describe("checkout: stopping (Ctrl-C) while a payment is being applied", () => {
  it("the payment sent is not abandoned: its answer is recorded, exit 130; the rerun pays nothing", async () => {
    const svc = fakeService([1]);
    const h = harness(svc, { globals: { json: true } });
    svc.beforePost = () => h.controller.abort(new Error("interrupted"));
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Interrupted);
    expect(r.error?.message).toBe("interrupted; the payment already sent was answered before the run stopped: paid $10.01 for 1 shipment");
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "interrupted", paid: [1], unknown: [] });
    expect(recordLines(h.configDir).at(-1)).toMatchObject({ row: "1", state: "paid" });

    const again = harness(svc, { configDir: h.configDir });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], again.deps))).code).toBe(0);
    expect(again.io.stderr()).toContain("nothing to pay");
    expect(svc.charges).toEqual([[1]]);
  });

  it("no further session starts: exit 130 naming what was paid and what was not", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    const svc = fakeService(ids);
    const h = harness(svc, { globals: { json: true } });
    svc.beforePost = () => h.controller.abort(new Error("interrupted"));
    const r = await exitOf(runVerb(checkoutCommand, [...ids.map(String), "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Interrupted);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(r.error?.message).toBe("interrupted before session 2 was paid");
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "interrupted", paid: ids.slice(0, 10), unpaid: [11, 12] });
  });
});
