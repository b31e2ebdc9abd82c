// How many requests a run keeps in flight: the default, the most, and reading --concurrency. A module of its own,
// kept light: the commands' wiring shows the default in --help and must not load the batch to do it.
import { UsageError } from "../errors.js";

export const DEFAULT_CONCURRENCY = 4;
/** List pages in flight at once (`due`, `watch`): reads are safe to repeat, and the API client waits out any 429. */
export const DEFAULT_READ_CONCURRENCY = 8;
/** More requests in flight than this only invites 429s from a service that publishes no rate limit. */
export const MAX_CONCURRENCY = 16;

/** --concurrency as given (commander hands over text; absent means the default). */
export function readConcurrency(raw: string | number | undefined): number {
  const value = raw ?? DEFAULT_CONCURRENCY;
  const n = typeof value === "number" ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY} (got ${String(value)})`);
  }
  return n;
}
