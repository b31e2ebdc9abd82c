// The service's clock, learnt from the `Date` header of its answers (RFC 9110 §6.6.1: an origin server with a clock
// sends one). Timestamps in the service's bodies (created_at, arrived_at...) are on ITS clock, which need not agree
// with this machine's: a laptop without NTP, a VM after suspend, or the sandbox's movable organization clock. Code
// that compares such timestamps with "now" (reconciling lost answers, report windows) asks for the service's now.
import type { Clock } from "../clock.js";
import type { Transport } from "./transport.js";

/**
 * An HTTP-date (IMF-fixdate, or the obsolete RFC 850 form) as epoch ms; undefined when absent, repeated, or not a
 * date (the asctime form, which names no zone, is not trusted). A date before 2000 is taken as a broken clock rather than a real one.
 */
export function parseHttpDate(header: string | string[] | undefined): number | undefined {
  if (typeof header !== "string" || header.trim() === "") return undefined;
  // Only a GMT date is an HTTP-date; Date.parse would read a bare "2025-01-01" as local time.
  if (!/\bGMT\s*$/i.test(header.trim())) return undefined;
  const ms = Date.parse(header);
  if (!Number.isFinite(ms) || ms < Date.UTC(2000, 0, 1)) return undefined;
  return ms;
}

/**
 * The transport with every answer's `Date` learnt, timed by `clock` when it arrived. `offsetMs`: service time minus
 * local time (ms) at the latest answer that carried a valid `Date`, undefined until one came. `Date` has whole
 * seconds, so this is within about 1 s of the truth (plus the answer's time in flight).
 */
export function observingDates(transport: Transport, clock: Clock): Transport & { offsetMs(): number | undefined } {
  let offset: number | undefined;
  return {
    async send(request) {
      const result = await transport.send(request);
      const at = result.ok ? parseHttpDate(result.response.headers["date"]) : undefined;
      if (at !== undefined) offset = at - clock.now().getTime();
      return result;
    },
    proxyFor: (url) => transport.proxyFor(url),
    close: () => transport.close(),
    offsetMs: () => offset,
  };
}

/** The service's now: local now moved by the measured offset, or local now when no answer has told it yet. */
export function serviceNow(offsetMs: number | undefined, clock: Clock): Date {
  const local = clock.now();
  return offsetMs === undefined ? local : new Date(local.getTime() + offsetMs);
}
