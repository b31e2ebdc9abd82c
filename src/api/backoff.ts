// How long to wait before a retry: exponential backoff with full jitter (a random wait between 0 and the
// exponential bound), so many clients throttled at once do not come back in step. Retry-After wins when sent.
import { parseHttpDate } from "./service-clock.js";

export const BACKOFF = {
  /** Bound of the first retry's wait. */
  baseMs: 500,
  /** No single wait is longer than this. */
  maxMs: 20_000,
  /** A Retry-After longer than this is not waited out: the error says when to try again instead. */
  retryAfterCapMs: 120_000,
  /** Retries of calls that are safe to retry, unless the client or the call says otherwise. */
  defaultRetries: 4,
} as const;

/** The wait before retry number `retry` (1 for the first retry); `random` returns [0, 1). */
export function backoffDelay(retry: number, random: () => number): number {
  const bound = Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * bound);
}

/**
 * Retry-After as milliseconds from `now`: delta-seconds ("120") or an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT").
 * A date in the past gives 0; anything unreadable gives undefined (the caller falls back to backoff). A date is on
 * the service's clock, so it is measured from the answer's own `Date` (`serviceDate`) when it has one: a clock here
 * hours off would otherwise wait hours, or not at all.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: Date,
  serviceDate?: string | string[],
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only a date with letters in it: Date.parse would otherwise read odd numbers ("-5") as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - (parseHttpDate(serviceDate) ?? now.getTime()));
}
