// Checkout's writes in the organization's ledger: an entry per shipment paid, keyed by its id (a payment is the
// shipment's, whichever checkout sent it).
// The service has no idempotency key, and a payment whose answer was lost may still be going through for a while (a
// service still applying it after the client died), so before each POST /api/v1/checkout the session's shipments are
// recorded in flight, with their settle time, and after it their outcome: paid (204), failed (a refusal that
// certainly charged nothing: 402, 403, 409, 422, or stopped before it was sent). A lost answer leaves them in flight.
// Every run first settles what is in flight (earlier-payments.ts), so a rerun started at once never prices and pays a
// shipment whose first payment may still be applied.
//
// Settled rows are forgotten when the ledger is next opened (the service's statuses say what is paid), so it holds what
// may still be in flight plus the last run's outcomes, and does not grow with every shipment ever paid.
//
// One input for every checkout of the organization on this machine: a second run started while one is working waits
// a few seconds for it (LOCK_WAIT_MS), then is refused naming it. Payments are few and short, and two runs paying the
// same shipments at once is exactly what must not happen. Report uploads and CSV runs never wait for a checkout.
import type { Deps } from "../deps.js";
import { InputLedger } from "../ledger/input-ledger.js";
import { seenBy } from "../ledger/owner.js";
import { settleAtFromIntent, settleWindowOf } from "../ledger/settle-window.js";
import type { Clock } from "../clock.js";
import { serviceFlags } from "../output/shell-quote.js";

/** How long a checkout waits for another checkout run to finish before refusing. */
export const LOCK_WAIT_MS = 5_000;

export async function openCheckoutLedger(deps: Pick<Deps, "api" | "connection" | "env" | "globals" | "io" | "signal">): Promise<InputLedger> {
  const connection = await deps.connection();
  return InputLedger.open(deps.env, {
    kind: "checkout",
    source: "checkout",
    target: { baseUrl: connection.baseUrl, token: connection.token, ledger: connection.ledger, sees: seenBy(await deps.api(), { signal: deps.signal }), say: (text) => deps.io.err(text) },
    window: await settleWindowOf(connection, deps.env),
    serviceFlags: serviceFlags(deps.globals),
    // What was paid is the shipments' status; only payments in flight matter to a later run.
    forgetSettled: true,
    lockWait: {
      ms: LOCK_WAIT_MS,
      say: (holder) => deps.io.err(`Another checkout is running (${holder}); waiting up to ${LOCK_WAIT_MS / 1000} s for it to finish...\n`),
    },
  });
}

/**
 * Records a session's shipments in flight, on disk before its POST may leave. Returns the settle time: until then the
 * service may still be applying the payment if its answer is lost.
 */
export async function recordPaying(ledger: InputLedger, clock: Clock, ids: readonly number[], total: number): Promise<Date> {
  const at = clock.now();
  const settleAt = settleAtFromIntent(at, ledger.window);
  // What a row in flight keeps of the payment sent: the session's shipments and the total confirmed for them (cents).
  const sent = { shipments: [...ids], total };
  const attempt = ledger.nextAttempt();
  await ledger.record(ids.map((id) => [String(id), { state: "in_flight", at: at.toISOString(), attempt, settle_at: settleAt.toISOString(), sent }] as const));
  return settleAt;
}

/** The service answered 204, or reading back showed the shipments Confirmed (or later). */
export function notePaid(ledger: InputLedger, ids: readonly number[]): void {
  ledger.note(ids.map((id) => [String(id), { state: "paid" }] as const));
}

/** A refusal that certainly charged nothing: a rerun may pay these. */
export function noteNotPaid(ledger: InputLedger, ids: readonly number[], why: string): void {
  ledger.note(ids.map((id) => [String(id), { state: "failed", error: why }] as const));
}
