// The checkout flow against a fake service: what is priced, shown, confirmed, paid and charged, and the exit code.
import { describe, expect, it } from "vitest";
import { checkoutCommand } from "../../../src/commands/checkout/checkout.js";
import { ExitCode } from "../../../src/errors.js";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { runVerb } from "../../helpers/run-verb.js";
import { exitOf, fakeService, harness, type FakeService } from "./fake.js";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const posts = (calls: string[]) => calls.filter((c) => c.startsWith("POST"));
const prices = (calls: string[]) => calls.filter((c) => c.startsWith("GET /checkout"));

describe("checkout: before anything is sent", () => {
  it("without a terminal, refuses without --yes before asking for the API at all (exit 2, names the flag)", async () => {
    const svc = fakeService([1, 2]);
    const h = harness(svc, { tty: false });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2"], h.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.error?.message).toContain("--yes");
    expect(h.apiRequested()).toBe(false);
    expect(svc.calls).toEqual([]);
  });

  it("with a terminal but --no-input, also requires --yes", async () => {
    const svc = fakeService([1]);
    const h = harness(svc, { tty: true, globals: { input: false } });
    expect((await exitOf(runVerb(checkoutCommand, ["1"], h.deps))).code).toBe(ExitCode.Usage);
    expect(svc.calls).toEqual([]);
  });

  it("refuses bad ids (exit 2) before any request", async () => {
    const svc = fakeService([1]);
    const h = harness(svc);
    const r = await exitOf(runVerb(checkoutCommand, ["1", "1", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(svc.calls).toEqual([]);
  });

  it("a shipment that does not exist stops the run before pricing, naming it", async () => {
    const svc = fakeService([1]);
    const h = harness(svc);
    const r = await exitOf(runVerb(checkoutCommand, ["1", "99", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Rejected);
    expect(r.error?.message).toMatch(/^shipment 99: /);
    expect(prices(svc.calls)).toEqual([]);
  });
});

describe("checkout: pricing, showing, confirming", () => {
  it("one session: prices once, shows every price and the total, asks once, pays once", async () => {
    const svc = fakeService([1, 2]);
    const h = harness(svc, { tty: true, answers: [true] });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2"], h.deps));
    expect(r.code).toBe(0);
    expect(h.asked).toEqual(["Charge $20.03 for 2 shipments?"]);
    expect(svc.calls.filter((c) => !c.startsWith("GET /shipments"))).toEqual([
      "GET /checkout 1,2",
      "PROMPT Charge $20.03 for 2 shipments?",
      "POST /checkout 1,2",
    ]);
    const out = h.io.stdout();
    expect(out).toMatch(/^SESSION\s+ID\s+TITLE\s+PRICE$/m);
    expect(out).toMatch(/^1\s+1\s+Artwork 1\s+\$10\.01$/m);
    expect(out).toMatch(/^1\s+2\s+Artwork 2\s+\$10\.02$/m);
    expect(out).toMatch(/Total \(2 shipments, 1 session\)\s+\$20\.03$/m);
    expect(svc.shipments.get(1)!.status).toBe(ShipmentStatus.Confirmed);
    expect(h.io.stderr()).toContain("paid $20.03 for 2 shipments");
  });

  it("23 ids: three price sessions (10, 10, 3), all shown before ONE confirmation, then paid in order", async () => {
    const ids = range(1, 23);
    const svc = fakeService(ids);
    const h = harness(svc, { tty: true, answers: [true] });
    const r = await exitOf(runVerb(checkoutCommand, ids.map(String), h.deps));
    expect(r.code).toBe(0);
    expect(h.asked).toHaveLength(1);
    const total = ids.reduce((a, id) => a + 1000 + id, 0);
    expect(h.asked[0]).toBe(`Charge $${(total / 100).toFixed(2)} for 23 shipments?`);
    // Every session priced before the one confirmation...
    expect(prices(svc.calls).slice(0, 3)).toEqual([
      `GET /checkout ${range(1, 10).join(",")}`,
      `GET /checkout ${range(11, 20).join(",")}`,
      `GET /checkout 21,22,23`,
    ]);
    const prompt = svc.calls.findIndex((c) => c.startsWith("PROMPT"));
    expect(prompt).toBe(svc.calls.indexOf("GET /checkout 21,22,23") + 1);
    expect(svc.calls.findIndex((c) => c.startsWith("POST"))).toBeGreaterThan(prompt);
    // ...and each POST follows a price session for the same shipments.
    expect(posts(svc.calls)).toEqual([
      `POST /checkout ${range(1, 10).join(",")}`,
      `POST /checkout ${range(11, 20).join(",")}`,
      `POST /checkout 21,22,23`,
    ]);
    for (const post of posts(svc.calls)) {
      const i = svc.calls.indexOf(post);
      expect(svc.calls[i - 1]).toBe(post.replace("POST", "GET"));
    }
    expect(svc.charges.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(h.io.stdout().match(/^\d+\s+\d+\s+Artwork/gm)).toHaveLength(23);
    expect(h.io.stdout()).toMatch(/Total \(23 shipments, 3 sessions\)/);
  });

  it("no at the prompt: exit 3, nothing paid", async () => {
    const svc = fakeService([1]);
    const h = harness(svc, { tty: true, answers: [false] });
    const r = await exitOf(runVerb(checkoutCommand, ["1"], h.deps));
    expect(r.code).toBe(ExitCode.Cancelled);
    expect(posts(svc.calls)).toEqual([]);
    expect(svc.charges).toEqual([]);
  });

  it("--yes skips the prompt even on a terminal", async () => {
    const svc = fakeService([1]);
    const h = harness(svc, { tty: true, answers: [] });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps))).code).toBe(0);
    expect(h.asked).toEqual([]);
    expect(svc.charges).toEqual([[1]]);
  });

  it("--max-total below the total: exit 2 with both amounts, after pricing, before any payment", async () => {
    const svc = fakeService([1, 2]);
    const h = harness(svc, { globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes", "--max-total", "20.02"], h.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.error?.message).toBe("total $20.03 exceeds --max-total $20.02");
    expect(prices(svc.calls)).toHaveLength(1);
    expect(posts(svc.calls)).toEqual([]);
    const doc = JSON.parse(h.io.stdout());
    expect(doc).toMatchObject({ status: "over-max-total", total: 2003, paid: [], unpaid: [1, 2] });
  });

  it("--max-total equal to the total pays", async () => {
    const svc = fakeService([1, 2]);
    const h = harness(svc);
    expect((await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes", "--max-total", "20.03"], h.deps))).code).toBe(0);
    expect(svc.charges).toEqual([[1, 2]]);
  });

  it("--confirm-total other than the total (below or above): exit 2 with both amounts, nothing paid", async () => {
    for (const confirmed of ["20.02", "20.04"]) {
      const svc = fakeService([1, 2]);
      const h = harness(svc, { globals: { json: true } });
      const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes", "--confirm-total", confirmed], h.deps));
      expect(r.code).toBe(ExitCode.Usage);
      expect(r.error?.message).toBe(`total $20.03 is not the confirmed $${confirmed}: nothing was charged`);
      expect(posts(svc.calls)).toEqual([]);
      expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "total-not-confirmed", total: 2003, paid: [], unpaid: [1, 2] });
    }
  });

  it("--confirm-total equal to the total pays", async () => {
    const svc = fakeService([1, 2]);
    const h = harness(svc);
    expect((await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes", "--confirm-total", "20.03"], h.deps))).code).toBe(0);
    expect(svc.charges).toEqual([[1, 2]]);
  });

  it("skips shipments already paid before the run, and prices only the rest", async () => {
    const svc = fakeService([1, 2, 3], [], { 2: { status: ShipmentStatus.Confirmed }, 3: { status: ShipmentStatus.Delivered } });
    const h = harness(svc, { globals: { json: true } });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "2", "3", "--yes"], h.deps))).code).toBe(0);
    expect(prices(svc.calls)).toEqual(["GET /checkout 1"]);
    expect(h.io.stderr()).toContain("2 shipments are already Confirmed or Delivered (paid before this run): skipped: 2 and 3");
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "paid", paid: [1], already_paid: [2, 3] });
  });

  it("everything already paid: exit 0, nothing priced", async () => {
    const svc = fakeService([1], [], { 1: { status: ShipmentStatus.Confirmed } });
    const h = harness(svc, { globals: { json: true } });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps))).code).toBe(0);
    expect(prices(svc.calls)).toEqual([]);
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "nothing-to-pay", paid: [], unpaid: [], already_paid: [1] });
  });

  it("--json: one document on stdout with the prices in cents per session and the outcome", async () => {
    const ids = range(1, 12);
    const svc = fakeService(ids);
    const h = harness(svc, { globals: { json: true } });
    expect((await exitOf(runVerb(checkoutCommand, [...ids.map(String), "--yes"], h.deps))).code).toBe(0);
    const doc = JSON.parse(h.io.stdout());
    expect(doc.sessions).toHaveLength(2);
    expect(doc.sessions[1]).toEqual({ shipments: { "11": 1011, "12": 1012 }, total: 2023, outcome: "paid" });
    expect(doc.total).toBe(ids.reduce((a, id) => a + 1000 + id, 0));
    expect(doc).toMatchObject({ status: "paid", paid: ids, unpaid: [], unknown: [], rerun: null });
    expect(doc.charged).toBe(doc.total);
  });

  it("--json on a terminal shows the price table on stderr so the person can answer", async () => {
    const svc = fakeService([1]);
    const h = harness(svc, { tty: true, answers: [true], globals: { json: true } });
    expect((await exitOf(runVerb(checkoutCommand, ["1"], h.deps))).code).toBe(0);
    expect(h.io.stderr()).toMatch(/Artwork 1\s+\$10\.01/);
    expect(() => JSON.parse(h.io.stdout())).not.toThrow();
  });
});

describe("checkout: 409, payment failed temporarily", () => {
  it("waits --retry-wait (default 60 s) and retries; one line per wait without a terminal", async () => {
    const svc = fakeService([1], ["409", "409", "ok"]);
    const h = harness(svc);
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps));
    expect(r.code).toBe(0);
    expect(h.clock.waits).toEqual([60_000, 60_000]);
    expect(h.io.stderr()).toContain("payment failed temporarily (409): retrying in 60 s (attempt 1 of 3)\n");
    expect(h.io.stderr()).toContain("payment failed temporarily (409): retrying in 60 s (attempt 2 of 3)\n");
    expect(h.io.stderr()).not.toContain("\r");
    expect(posts(svc.calls)).toHaveLength(3);
    expect(svc.charges).toEqual([[1]]);
  });

  it("counts down second by second on a terminal", async () => {
    const svc = fakeService([1], ["409", "ok"]);
    const h = harness(svc, { tty: true });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes", "--retry-wait", "3"], h.deps))).code).toBe(0);
    expect(h.clock.waits).toEqual([1000, 1000, 1000]);
    for (const s of [3, 2, 1]) expect(h.io.stderr()).toContain(`\r\x1b[Kpayment failed temporarily (409): retrying in ${s} s (attempt 1 of 3)`);
  });

  it("after --retries retries, stops with exit 7 and the rerun command", async () => {
    const svc = fakeService([1, 2], ["409", "409", "409"]);
    const h = harness(svc, { globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes", "--retries", "2", "--retry-wait", "0"], h.deps));
    expect(r.code).toBe(ExitCode.Unavailable);
    expect(posts(svc.calls)).toHaveLength(3);
    expect(h.clock.waits).toEqual([]);
    expect(r.error?.message).toContain("still failed after 2 retries");
    expect(r.error?.hint).toContain("shipctl checkout 1 2 --yes");
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "failed", paid: [], unpaid: [1, 2], rerun: "shipctl checkout 1 2 --yes" });
  });

  it("--retries 0 stops at the first 409", async () => {
    const svc = fakeService([1], ["409"]);
    const h = harness(svc);
    expect((await exitOf(runVerb(checkoutCommand, ["1", "--yes", "--retries", "0"], h.deps))).code).toBe(ExitCode.Unavailable);
    expect(posts(svc.calls)).toHaveLength(1);
  });

  it("Ctrl-C during the wait stops at once: exit 130, not paid, not retried", async () => {
    const svc = fakeService([1], ["409", "ok"]);
    const h = harness(svc, { onSleep: (_ms, self) => self.controller.abort(new Error("interrupted")) });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Interrupted);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.charges).toEqual([]);
  });
});

describe("checkout: payment refused", () => {
  it("402 on the only session: exit 5, says the method is invalidated and what to do", async () => {
    const svc = fakeService([1], ["402"]);
    const h = harness(svc, { globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Payment);
    expect(r.error?.message).toContain("The card was declined: insufficient funds");
    expect(r.error?.hint).toContain("invalidated the payment method");
    expect(r.error?.hint).toContain("dashboard");
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "payment-refused", paid: [], unpaid: [1] });
  });

  it("402 on session 2 of 3: no further session is attempted; exit 8 naming what was paid", async () => {
    const ids = range(1, 25);
    const svc = fakeService(ids, ["ok", "402", "ok"]);
    const h = harness(svc, { globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, [...ids.map(String), "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Partial);
    expect(posts(svc.calls)).toHaveLength(2);
    expect(svc.charges).toEqual([range(1, 10)]);
    expect(r.error?.message).toMatch(/^paid 10 of 25 shipments, then stopped: The card was declined/);
    expect(r.error?.hint).toContain(`Paid: ${range(1, 10).join(", ")}`);
    expect(r.error?.hint).toContain(`shipctl checkout ${range(11, 25).join(" ")} --yes`);
    const doc = JSON.parse(h.io.stdout());
    expect(doc).toMatchObject({ status: "partly-paid", paid: range(1, 10), unpaid: range(11, 25) });
    expect(doc.sessions.map((s: { outcome: string }) => s.outcome)).toEqual(["paid", "not-paid", "not-attempted"]);
  });

  it("403: exit 5, stops at once, tells to fix the payment method", async () => {
    const svc = fakeService(range(1, 15), ["403"]);
    const h = harness(svc);
    const r = await exitOf(runVerb(checkoutCommand, [...range(1, 15).map(String), "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Payment);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(r.error?.message).toContain("No valid payment method");
    expect(r.error?.hint).toContain("payment method in the service's dashboard, then rerun");
  });

  it("another refusal (422) keeps its own exit code when nothing was paid", async () => {
    const svc = fakeService([1], ["422"]);
    const h = harness(svc);
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Rejected);
    expect(r.error?.message).toContain("session 1 was not paid: The service rejected the input: The shipment has no price");
    expect(posts(svc.calls)).toHaveLength(1);
  });
});

describe("checkout: a lost answer is read back after a pause, never resent in the same run", () => {
  /** Sleeps go into the call log, so a test can see that the read-back came after the pause. */
  const logSleeps = (svc: FakeService) => (ms: number) => void svc.calls.push(`SLEEP ${ms}`);

  it("charged but the answer was lost: waits 2 s, reads back, paid, the run goes on; one charge", async () => {
    const ids = range(1, 12);
    const svc = fakeService(ids, ["lost-after", "ok"]);
    const h = harness(svc, { globals: { json: true }, onSleep: logSleeps(svc) });
    const r = await exitOf(runVerb(checkoutCommand, [...ids.map(String), "--yes"], h.deps));
    expect(r.code).toBe(0);
    expect(posts(svc.calls)).toHaveLength(2);
    expect(svc.charges).toEqual([range(1, 10), [11, 12]]);
    expect(h.io.stderr()).toContain("payment of session 1: The answer to POST /api/v1/checkout was lost");
    expect(h.io.stderr()).toContain("not sending it again (it may still be going through); reading its 10 shipments back in 2 s");
    expect(h.io.stderr()).toContain("session 1 was paid");
    // The lost POST, then the pause, then the read-back of its ten shipments.
    const lost = svc.calls.indexOf(`POST /checkout ${range(1, 10).join(",")}`);
    expect(svc.calls[lost + 1]).toBe("SLEEP 2000");
    expect(svc.calls.slice(lost + 2, lost + 12).sort()).toEqual(range(1, 10).map((id) => `GET /shipments/${id}`).sort());
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "paid", paid: ids });
  });

  it("still Draft after the pause: not sent again, exit 7, left in flight with its settle time; the rerun at once waits, then pays once", async () => {
    const svc = fakeService([1, 2], ["lost-before"]);
    const h = harness(svc, { globals: { json: true }, onSleep: logSleeps(svc) });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Unavailable);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.calls.slice(-3)).toEqual(["SLEEP 2000", "GET /shipments/1", "GET /shipments/2"]);
    expect(svc.charges).toEqual([]);
    expect(r.error?.message).toContain("the answer to the payment of session 1 was lost, and it was not sent again in this run");
    expect(r.error?.message).toContain("read back 2 s later: 0 paid, 2 not paid yet (still Draft), 0 could not be read");
    expect(r.error?.message).not.toContain("no further session");
    // Still a Draft 2 s later proves nothing: the payment may be going through until its settle time (sent + 2 s + 3 s).
    expect(r.error?.hint).toContain("Unknown: 1, 2");
    expect(r.error?.hint).not.toContain("Not paid");
    expect(r.error?.hint).toMatch(/Rerun after 2026-01-05 10:00:05 UTC, when the payment in flight can no longer be going through \(a rerun sooner waits until then\); .*:\n {2}shipctl checkout 1 2 --yes$/);
    expect(JSON.parse(h.io.stdout())).toMatchObject({
      status: "failed",
      paid: [],
      unpaid: [],
      unknown: [1, 2],
      settle_at: "2026-01-05T10:00:05.000Z",
      rerun: "shipctl checkout 1 2 --yes",
      sessions: [{ outcome: "unknown" }],
    });

    // The rerun at once (its clock starts where the first run's did): the payment is still in flight, so it reads the
    // shipments back until the settle time has passed, finds them still Drafts, and only then prices and pays them.
    const again = harness(svc, { configDir: h.configDir, onSleep: logSleeps(svc) });
    const before = svc.calls.length;
    expect((await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes"], again.deps))).code).toBe(0);
    const rerun = svc.calls.slice(before);
    expect(rerun.indexOf("GET /checkout 1,2")).toBeGreaterThan(rerun.lastIndexOf("SLEEP 2000"));
    expect(again.io.stderr()).toContain("A payment an earlier run sent for shipments 1, 2 never had its answer");
    expect(again.io.stderr()).toContain("it may still be applying them until 10:00:05 UTC");
    expect(again.io.stderr()).toContain("2 not paid by it (payable now)");
    expect(posts(svc.calls)).toHaveLength(2);
    expect(svc.charges).toEqual([[1, 2]]);
  });

  it("a payment still going through when its answer was lost shows as paid after the pause: exit 0, one POST", async () => {
    const svc = fakeService([1, 2], ["lost-before"]);
    // The first request completes while shipctl waits: what a response timeout on a slow service looks like.
    const h = harness(svc, {
      onSleep: () => {
        for (const id of [1, 2]) svc.shipments.get(id)!.status = ShipmentStatus.Confirmed;
        svc.charges.push([1, 2]);
      },
    });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes"], h.deps));
    expect(r.code).toBe(0);
    expect(h.clock.waits).toEqual([2000]);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.charges).toEqual([[1, 2]]);
    expect(h.io.stderr()).toContain("session 1 was paid");
  });

  it("a 5xx is treated as a lost answer too: not sent again, exit 7", async () => {
    const svc = fakeService([1], ["500-before", "ok"]);
    const h = harness(svc);
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Unavailable);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.charges).toEqual([]);
    expect(r.error?.message).toContain("The service failed: Server Error (POST /api/v1/checkout answered 500)");
  });

  it("lost on session 2 of 3 after session 1 was paid: exit 8, session 3 not attempted, the rerun names the rest", async () => {
    const ids = range(1, 25);
    const svc = fakeService(ids, ["ok", "lost-before", "ok"]);
    const h = harness(svc, { globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, [...ids.map(String), "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Partial);
    expect(posts(svc.calls)).toHaveLength(2);
    expect(svc.charges).toEqual([range(1, 10)]);
    expect(r.error?.message).toContain("paid 10 of 25 shipments, then stopped: the answer to the payment of session 2 was lost");
    expect(r.error?.message).toContain("no further session was attempted");
    const rerun = `shipctl checkout ${range(11, 25).join(" ")} --yes`;
    expect(r.error?.hint).toContain(`Not paid: ${range(21, 25).join(", ")}`);
    expect(r.error?.hint).toContain(`Unknown: ${range(11, 20).join(", ")}`);
    expect(r.error?.hint).toContain(rerun);
    const doc = JSON.parse(h.io.stdout());
    expect(doc).toMatchObject({ status: "partly-paid", paid: range(1, 10), unpaid: range(21, 25), unknown: range(11, 20), rerun });
    expect(doc.sessions.map((s: { outcome: string }) => s.outcome)).toEqual(["paid", "unknown", "not-attempted"]);
  });

  it("a read-back that cannot settle every shipment: not resent, exit 7, unknown ids reported", async () => {
    const svc = fakeService([1, 2], ["lost-before", "ok"]);
    const h = harness(svc, { globals: { json: true } });
    // Reads of shipment 2 fail only after the first pass (the one before pricing).
    let reads = 0;
    svc.beforeRead = (id) => {
      if (id === 2 && ++reads > 1) svc.failingReads.add(2);
    };
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Unavailable);
    expect(posts(svc.calls)).toHaveLength(1);
    expect(r.error?.message).toContain("0 paid, 1 not paid yet (still Draft), 1 could not be read");
    expect(r.error?.hint).toContain("Unknown: 1, 2");
    expect(r.error?.hint).toContain("shipctl checkout 1 2 --yes");
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "failed", paid: [], unpaid: [], unknown: [1, 2] });
  });

  it("Ctrl-C during the pause: exit 130, says the session may have been charged, nothing read or sent", async () => {
    const svc = fakeService([1], ["lost-before"]);
    const h = harness(svc, { globals: { json: true }, onSleep: (_ms, self) => self.controller.abort(new Error("interrupted")) });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Interrupted);
    expect(r.error?.message).toContain("interrupted while session 1 was being paid: it may have been charged");
    expect(posts(svc.calls)).toHaveLength(1);
    expect(svc.calls.at(-1)).toBe("POST /checkout 1");
    expect(JSON.parse(h.io.stdout())).toMatchObject({ status: "interrupted", unknown: [1], rerun: "shipctl checkout 1 --yes" });
  });
});

describe("checkout: prices are never charged above what was confirmed", () => {
  it("a price that rose before its session is paid stops that session (exit 8 after an earlier one was paid)", async () => {
    const ids = range(1, 12);
    const svc = fakeService(ids);
    const h = harness(svc);
    // Raise the price of 11 once session 1 has been paid.
    svc.afterPost = () => svc.setPrice(11, 5000);
    const r = await exitOf(runVerb(checkoutCommand, [...ids.map(String), "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Partial);
    expect(r.error?.message).toContain("the price of session 2 rose from $20.23 to $60.12");
    expect(svc.charges).toEqual([range(1, 10)]);
  });
});
