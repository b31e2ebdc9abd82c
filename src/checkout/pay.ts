// Pays the priced sessions one after another (POST /api/v1/checkout) and decides, after each failure, whether the
// run may go on. The service has no idempotency key, so the rules are:
// - Before each POST the session's shipments are recorded in flight in the checkout ledger (checkout-ledger.ts), and after
//   it their outcome: paid, or not paid for a refusal that certainly charged nothing.
// - 409 is a refusal: wait (--retry-wait) and try again, up to --retries times.
// - 402 (declined: the method is now invalidated) and 403 (no valid method) stop the whole run: any further session
//   would fail the same way, and a declined card should not be tried again.
// - A lost answer is never followed by another payment of that session in this run: the first request may still be
//   going through, so a shipment read back as Draft proves nothing yet. After a short pause the shipments are read
//   back; a session read back entirely paid counts as paid and the run goes on; anything else stops the run with what
//   is known, the shipments not shown paid stay in flight in the ledger, and the rerun command says from when a rerun
//   settles them at once (a rerun sooner waits for them: earlier-payments.ts).
// - Once the run is stopping (Ctrl-C) no payment starts; one already sent is given its answer (the HTTP layer ends a
//   write only on the second Ctrl-C, or after WRITE_WAIT_MS), which is recorded.
// Each POST follows a price session for the same shipments (the service requires it), so a session is priced again
// before it is paid unless its price session was the very last request; it is never paid above the price confirmed.
import { ConflictError, PaymentDeclinedError, NoPaymentMethodError, isApiFailure } from "../api/api-errors.js";
import { InterruptedError, messageOf } from "../errors.js";
import { RECONCILE_DELAY_MS } from "../batch/settle-lost.js";
import type { ApiClient } from "../api/client-types.js";
import type { Deps } from "../deps.js";
import { formatUsd } from "../output/money.js";
import { waitBeforeRetry } from "./countdown.js";
import type { CheckoutPlan, CheckoutSession, SessionOutcome } from "./checkout-model.js";
import { priceGroup } from "./price.js";
import { reconcile, type Reconciliation } from "./paid-read-back.js";
import { notePaid, noteNotPaid, recordPaying } from "./checkout-ledger.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { counted } from "../output/counted.js";

/** Why the run stopped at a session. */
export type Stop =
  | { kind: "declined"; error: PaymentDeclinedError }
  | { kind: "no-payment-method"; error: NoPaymentMethodError }
  | { kind: "retries-exhausted"; error: ConflictError }
  /**
   * `found`: what reading the session's shipments back showed, `waitedMs` after the answer was lost; `settleAt`: when
   * the payment can no longer be going through.
   */
  | { kind: "lost"; error: unknown; found: Reconciliation; waitedMs: number; settleAt: Date }
  | { kind: "price-rose"; confirmed: number; now: number }
  /** `settleAt` when the payment had been sent and its answer is unknown. */
  | { kind: "interrupted"; mayHaveCharged: boolean; settleAt?: Date }
  | { kind: "error"; error: unknown };

export interface PayContext {
  deps: Pick<Deps, "io" | "clock" | "signal">;
  api: ApiClient;
  ledger: InputLedger;
  options: Pick<CheckoutPlan, "retries" | "retryWaitSeconds">;
  /** Talk for stderr (one line, no newline). */
  note(line: string): void;
}

export interface PayResult {
  /** Paid by this run. */
  paid: number[];
  /** Not paid: refused, never sent, or proven unpaid. */
  unpaid: number[];
  /**
   * In flight: a payment was sent for them (by this run or an earlier one) and nothing proves whether it went
   * through.
   */
  unknown: number[];
  /** When the latest of those payments can no longer be going through: a rerun after it settles them at once. */
  settleAt?: Date;
  stop?: { session: CheckoutSession; reason: Stop };
}

/** Pays `sessions` in order, setting each one's outcome; stops at the first session that cannot be paid. */
export async function paySessions(ctx: PayContext, sessions: CheckoutSession[]): Promise<PayResult> {
  const result: PayResult = { paid: [], unpaid: [], unknown: [] };
  // Sessions were priced in order, so only a lone session's price session is still the latest request.
  let latestPricedIsNext = sessions.length === 1;
  for (const session of sessions) {
    const ids = session.shipments.map((s) => s.id);
    const settled = await paySession(ctx, session, latestPricedIsNext);
    latestPricedIsNext = false;
    session.outcome = outcomeOf(settled, ids.length);
    result.paid.push(...settled.paid);
    result.unpaid.push(...settled.unpaid);
    result.unknown.push(...settled.unknown);
    if (settled.unknown.length > 0 && settled.settleAt) result.settleAt = settled.settleAt;
    if (settled.stop) {
      result.stop = { session, reason: settled.stop };
      // Later sessions were never sent: their shipments are unpaid.
      for (const later of sessions.slice(session.number)) result.unpaid.push(...later.shipments.map((s) => s.id));
      return result;
    }
    if (sessions.length > 1) {
      ctx.note(`paid session ${session.number} of ${sessions.length}: ${formatUsd(session.total)} for ${counted(ids.length, "shipment")}`);
    }
  }
  return result;
}

/** One session's payment: its `settleAt` is when the payment of its unknown ones can no longer be going through. */
interface Settled extends Omit<PayResult, "stop"> {
  /** A payment request went out for this session. */
  sent: boolean;
  stop?: Stop;
}

async function paySession(ctx: PayContext, session: CheckoutSession, priceIsFresh: boolean): Promise<Settled> {
  const { api, ledger, deps, options } = ctx;
  const ids = session.shipments.map((s) => s.id);
  let fresh = priceIsFresh;
  let sent = false;
  let retriesUsed = 0;
  const unpaid = (stop?: Stop): Settled => ({ paid: [], unpaid: [...ids], unknown: [], sent, stop });
  const refused = (why: string, stop: Stop): Settled => {
    noteNotPaid(ledger, ids, why);
    return unpaid(stop);
  };

  for (;;) {
    if (!fresh) {
      const stop = await refreshPrice(ctx, session);
      if (stop) return unpaid(stop);
    }
    fresh = false;
    // Stopping: nothing new starts (a payment already sent is waited for below).
    if (deps.signal.aborted) return unpaid({ kind: "interrupted", mayHaveCharged: false });
    let settleAt: Date;
    try {
      settleAt = await recordPaying(ledger, deps.clock, ids, session.total);
    } catch (err) {
      // The ledger cannot be written: no payment may leave without its intent on disk.
      return unpaid({ kind: "error", error: err });
    }
    try {
      sent = true;
      await api.finalizeCheckout(ids, { signal: deps.signal });
      notePaid(ledger, ids);
      return { paid: [...ids], unpaid: [], unknown: [], sent };
    } catch (err) {
      // Only a failure that proves the request was refused (a 4xx answer, or nothing sent) counts as not charged.
      // Anything else, errors this code does not recognise included, may have charged the card: it is settled by
      // reading the shipments back, never by sending the payment again.
      if (err instanceof ConflictError) {
        // 409: the payment failed when the session was created; usually temporary, retried after a wait.
        noteNotPaid(ledger, ids, `409: ${messageOf(err)}`);
        if (retriesUsed >= options.retries) return unpaid({ kind: "retries-exhausted", error: err });
        retriesUsed++;
        try {
          await waitBeforeRetry(deps, { seconds: options.retryWaitSeconds, attempt: retriesUsed, of: options.retries });
        } catch {
          return unpaid({ kind: "interrupted", mayHaveCharged: false });
        }
        continue;
      }
      // 402: declined, and the service has invalidated the payment method. 403: no valid payment method.
      if (err instanceof PaymentDeclinedError) return refused(`402: ${messageOf(err)}`, { kind: "declined", error: err });
      if (err instanceof NoPaymentMethodError) {
        return refused(`403: ${messageOf(err)}`, { kind: "no-payment-method", error: err });
      }
      const mayHaveArrived = !isApiFailure(err) || err.mayHaveArrived;
      if (deps.signal.aborted || err instanceof InterruptedError) {
        if (!mayHaveArrived) return refused("interrupted before it was sent", { kind: "interrupted", mayHaveCharged: false });
        // Sent, and its answer no longer awaited: in flight in the ledger, settled by the next run.
        const stop: Stop = { kind: "interrupted", mayHaveCharged: true, settleAt };
        return { paid: [], unpaid: [], unknown: [...ids], settleAt, sent, stop };
      }
      if (!mayHaveArrived) return refused(messageOf(err), { kind: "error", error: err });
      // The answer was lost (network after sending, 5xx, an unreadable answer): read back before anything else.
      return settleLost(ctx, session, err, settleAt);
    }
  }
}

/**
 * After a lost answer: wait, read the session's shipments back, and say what that shows. Never sends the payment again:
 * the lost request may still be running, and the service has no idempotency key. Shipments shown paid are recorded
 * paid; the others stay in flight in the ledger until `settleAt`, and only a later run (which settles them first) may
 * pay what is still a Draft then.
 */
async function settleLost(ctx: PayContext, session: CheckoutSession, error: unknown, settleAt: Date): Promise<Settled> {
  const { api, deps } = ctx;
  const ids = session.shipments.map((s) => s.id);
  const mayHaveCharged: Stop = { kind: "interrupted", mayHaveCharged: true, settleAt };
  const inFlight = { paid: [], unpaid: [], unknown: [...ids], settleAt, sent: true };
  ctx.note(`payment of session ${session.number}: ${messageOf(error)}`);
  ctx.note(
    `not sending it again (it may still be going through); reading its ${counted(ids.length, "shipment")} back ` +
      `in ${RECONCILE_DELAY_MS / 1000} s to see what was charged`,
  );
  try {
    await deps.clock.sleep(RECONCILE_DELAY_MS, deps.signal);
  } catch {
    return { ...inFlight, stop: mayHaveCharged };
  }
  const found = await reconcile(api, ids, deps.signal);
  notePaid(ctx.ledger, found.paid);
  const settled = { paid: found.paid, unpaid: [], unknown: [...found.unpaid, ...found.unknown], settleAt, sent: true };
  if (deps.signal.aborted) return { ...settled, stop: mayHaveCharged };
  if (found.paid.length === ids.length) {
    // Confirmed (or later) is proof of the charge: the session is paid exactly as if its answer had arrived.
    ctx.note(`session ${session.number} was paid: every shipment in it is now confirmed`);
    return settled;
  }
  return { ...settled, stop: { kind: "lost", error, found, waitedMs: RECONCILE_DELAY_MS, settleAt } };
}

/** Prices the session again just before paying it; refuses to go on when the price rose above what was confirmed. */
async function refreshPrice(ctx: PayContext, session: CheckoutSession): Promise<Stop | undefined> {
  try {
    const now = await priceGroup({ api: ctx.api, signal: ctx.deps.signal, warn: ctx.note }, session.shipments);
    if (now.total > session.total) return { kind: "price-rose", confirmed: session.total, now: now.total };
    // Equal or lower: pay it, and report what is actually charged.
    session.shipments = now.shipments;
    session.total = now.total;
    return undefined;
  } catch (err) {
    if (ctx.deps.signal.aborted) return { kind: "interrupted", mayHaveCharged: false };
    return { kind: "error", error: err };
  }
}

function outcomeOf(settled: Settled, count: number): SessionOutcome {
  if (settled.paid.length === count) return "paid";
  if (settled.paid.length > 0) return "partly-paid";
  if (settled.unknown.length > 0) return "unknown";
  return settled.sent ? "not-paid" : "not-attempted";
}
