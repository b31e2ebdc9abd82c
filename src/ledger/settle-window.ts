// How long a write whose answer never came stays "in flight": until its settle time, the moment after which the
// service can no longer be applying it. Before that time a read-back that does not find the write proves nothing (a
// slow insert behind a gateway's timeout, a handler still running after the client died), so nothing may be sent
// again; after it, a write not found was not applied.
//
//   settle time = when its last byte was sent + the longest the service may still be applying it
//
// The contract says nothing about how long the service may take, so that part is an assumption, kept here and
// nowhere else (README "In flight", contract-notes style):
//   [assume] the service applies a request within APPLY_WINDOW_DEFAULT_MS of receiving its last byte.
// A user may lengthen it (SHIPCTL_APPLY_WINDOW, in seconds) but not shorten it below APPLY_WINDOW_FLOOR_MS. A shipctl
// sandbox says how long its own slowest request may take (`apply_max_ms` of GET /_sandbox/tables), which keeps
// rehearsals and tests fast; that value is trusted only for a sandbox.
//
// An answer ends a request. Only a request with no answer waits out that settle time:
//   [assume] a write the service does itself (creating, storing, updating) is over once the service has answered it,
//   whatever the status: a 500 comes from a handler that has stopped, so nothing of the request is applied after it.
//   A read-back then settles it at once, after ANSWER_READ_LAG_MS for a read served behind the write
//   (settleAtFromAnswer). Two exceptions keep the whole settle time:
//   - a gateway's 502, 503 or 504 (GATEWAY_STATUSES): the gateway answered, and the service behind it may still be
//     applying the request;
//   - a payment (checkout), whatever the status: the service charges through a payment provider, which may finish
//     after the service answered. Checkout never shortens its settle time (checkout/pay.ts).
// A success answer whose body could not be read is not one of these: it was applied, and its read-back must find it.
import type { ApiClient } from "../api/client-types.js";
import type { InFlight } from "./entry.js";
import { UsageError } from "../errors.js";

export const APPLY_WINDOW_DEFAULT_MS = 5 * 60_000;
export const APPLY_WINDOW_FLOOR_MS = 60_000;
/** A week: longer is no window a service applies within, and past a date's range a settle time could not be written. */
export const APPLY_WINDOW_MAX_MS = 7 * 86_400_000;

/**
 * [assume] From recording an intent to its request's last byte leaving this machine: a connection (connect timeout
 * 10 s) and a JSON body of a few KB. A loopback service is connected at once. Uploads record when their last byte
 * left instead (InputLedger.markSent), since a 12 MB body may take minutes.
 */
export const SEND_BOUND_MS = 15_000;
export const LOOPBACK_SEND_BOUND_MS = 2_000;

export interface SettleWindow {
  /** The longest the service may still be applying a request after its last byte. */
  applyMs: number;
  /** The longest from an intent to its request's last byte. */
  sendBoundMs: number;
  /** Where applyMs comes from, for messages. */
  source: "default" | "env" | "sandbox";
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The window for a service: the sandbox's own value for a sandbox, else the default or SHIPCTL_APPLY_WINDOW. */
export function settleWindowFor(options: { baseUrl: string; sandboxApplyMaxMs?: number; env: NodeJS.ProcessEnv }): SettleWindow {
  const host = new URL(options.baseUrl).hostname;
  const sendBoundMs = LOOPBACK.test(host) ? LOOPBACK_SEND_BOUND_MS : SEND_BOUND_MS;
  const raw = options.env.SHIPCTL_APPLY_WINDOW?.trim();
  if (raw) {
    const seconds = Number(raw);
    if (!/^\d+$/.test(raw) || seconds * 1000 < APPLY_WINDOW_FLOOR_MS || seconds * 1000 > APPLY_WINDOW_MAX_MS) {
      const range = `from ${APPLY_WINDOW_FLOOR_MS / 1000} to ${APPLY_WINDOW_MAX_MS / 1000} (a week)`;
      throw new UsageError(`SHIPCTL_APPLY_WINDOW must be a whole number of seconds ${range} (got "${raw}")`, {
        hint: "It is how long shipctl assumes the service may still be applying a request whose answer was lost; it can be lengthened, not shortened.",
      });
    }
    return { applyMs: seconds * 1000, sendBoundMs, source: "env" };
  }
  if (options.sandboxApplyMaxMs !== undefined) return { applyMs: options.sandboxApplyMaxMs, sendBoundMs, source: "sandbox" };
  return { applyMs: APPLY_WINDOW_DEFAULT_MS, sendBoundMs, source: "default" };
}

/**
 * The window for a connection. Only a loopback service is asked whether it is a sandbox (the question is answered by
 * its tables, which a profile pointed at a sandbox already keeps): a real service is never asked an extra question
 * for it, and a sandbox elsewhere simply gets the default window.
 */
export async function settleWindowOf(connection: { baseUrl: string; tables(): Promise<{ source: string; applyMaxMs?: number }> }, env: NodeJS.ProcessEnv): Promise<SettleWindow> {
  let sandboxApplyMaxMs: number | undefined;
  if (LOOPBACK.test(new URL(connection.baseUrl).hostname)) {
    const tables = await connection.tables();
    if (tables.source === "sandbox") sandboxApplyMaxMs = tables.applyMaxMs;
  }
  return settleWindowFor({ baseUrl: connection.baseUrl, sandboxApplyMaxMs, env });
}

/** The settle time of a request recorded at `at`, before anything is known of when its last byte left. */
export function settleAtFromIntent(at: Date, window: SettleWindow): Date {
  return new Date(at.getTime() + window.sendBoundMs + window.applyMs);
}

/**
 * The settle time a claim made ahead of its request (`await_sent`: it may wait for a free slot) carries in the store:
 * one send bound later than its intent's. It then covers a request that leaves within that bound (claimCovers) without
 * a rewrite of the claim per row when it leaves, and another run never settles it early.
 */
export function claimedAhead(state: InFlight, window: SettleWindow): InFlight {
  if (!state.await_sent || state.sent_at !== undefined) return state;
  return { ...state, settle_at: new Date(Date.parse(state.settle_at) + window.sendBoundMs).toISOString() };
}

/** Whether a claim made ahead (claimedAhead) covers its request leaving at `sentAt`: settleAtFromSent is no later. */
export function claimCovers(intent: InFlight, sentAt: Date, window: SettleWindow): boolean {
  return sentAt.getTime() - Date.parse(intent.at) <= window.sendBoundMs;
}

/** The service's clock offset known now, recorded with an intent so a rerun places it on the service's timeline. */
export function offsetOf(api: Pick<ApiClient, "serviceClockOffsetMs">): { offset_ms?: number } {
  const offset = api.serviceClockOffsetMs?.();
  return offset === undefined ? {} : { offset_ms: offset };
}

/**
 * The settle time of a request whose last byte was handed to the connection at `sentAt`. The send bound is kept as a
 * margin: bytes handed over may wait in the socket's buffers before they leave.
 */
export function settleAtFromSent(sentAt: Date, window: SettleWindow): Date {
  return new Date(sentAt.getTime() + window.sendBoundMs + window.applyMs);
}

/** [assume] Statuses a gateway in front of the service answers for it (it could not reach it, or gave up waiting). */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * [assume] How long after the service's own answer a read-back may still miss what the request did: a list served by
 * a replica a few seconds behind the write.
 */
export const ANSWER_READ_LAG_MS = 5_000;

/**
 * Whether a lost write's failure status is the service's own answer, which ends the request (see [assume] above): a
 * 5xx other than a gateway's. A write that must not repeat is never sent again once it may have arrived (api/call.ts),
 * so this status answers the only attempt that may have been applied.
 */
export function answeredByService(status: number | undefined): status is number {
  return status !== undefined && status >= 500 && status <= 599 && !GATEWAY_STATUSES.has(status);
}

/**
 * The settle time of a request the service answered at `answeredAt` (answeredByService): a lagging read's allowance
 * after the answer, never more than the service is assumed to take to apply a request.
 */
export function settleAtFromAnswer(answeredAt: Date, window: SettleWindow): Date {
  return new Date(answeredAt.getTime() + Math.min(ANSWER_READ_LAG_MS, window.applyMs));
}
