// Turns the command line of `shipctl checkout` into checked options. Everything here runs before any request, so a
// typo costs nothing: each refusal is a UsageError (exit 2) naming the argument and showing a valid form.
import { UsageError } from "../errors.js";

/** The flags as commander hands them over (strings: they are checked here so the messages are ours). */
export type CheckoutFlags = {
  yes?: boolean;
  maxTotal?: string;
  retryWait?: string;
  retries?: string;
  /** false with --no-wait. */
  wait?: boolean;
};

export interface CheckoutOptions {
  /** Shipment ids in the order given, without duplicates. */
  ids: number[];
  /** Pay without asking. */
  yes: boolean;
  /** Refuse when the total exceeds this (US cents). */
  maxTotalCents?: number;
  /** Seconds to wait before retrying a payment that failed temporarily (409). */
  retryWaitSeconds: number;
  /** How many times a payment that failed temporarily (409) is retried. */
  retries: number;
  /**
   * Wait for an earlier run's payment still in flight for these shipments (false with --no-wait: they are then
   * reported unknown at once, with when a rerun settles them).
   */
  wait: boolean;
}

/** api.md recommends "about a minute" between 409 retries. */
export const DEFAULT_RETRY_WAIT_SECONDS = 60;
export const DEFAULT_RETRIES = 3;

export function parseCheckoutOptions(args: readonly string[], flags: CheckoutFlags): CheckoutOptions {
  return {
    ids: parseShipmentIds(args),
    yes: flags.yes === true,
    maxTotalCents: flags.maxTotal === undefined ? undefined : parseDollars(flags.maxTotal, "--max-total"),
    retryWaitSeconds:
      flags.retryWait === undefined ? DEFAULT_RETRY_WAIT_SECONDS : parseWholeNumber(flags.retryWait, "--retry-wait", "seconds"),
    retries: flags.retries === undefined ? DEFAULT_RETRIES : parseWholeNumber(flags.retries, "--retries", "retries"),
    wait: flags.wait !== false,
  };
}

/** Ids as separate arguments or comma-separated (`12 13` or `12,13`, handy from a script). */
export function parseShipmentIds(args: readonly string[]): number[] {
  const ids: number[] = [];
  const seen = new Set<number>();
  for (const word of args.flatMap((a) => a.split(","))) {
    const text = word.trim();
    if (text === "") continue;
    const id = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      throw new UsageError(`shipment id "${text}" is not a whole positive number`, {
        hint: "Pass shipment ids as shown by `shipctl list shipments`, e.g. `shipctl checkout 125 126`.",
      });
    }
    if (seen.has(id)) {
      throw new UsageError(`shipment id ${id} is given more than once`, { hint: "List each shipment once." });
    }
    seen.add(id);
    ids.push(id);
  }
  if (ids.length === 0) {
    throw new UsageError("no shipment ids given", { hint: "Example: shipctl checkout 125 126" });
  }
  return ids;
}

/** "250", "249.99", "$1,250.5" -> cents, without going through floating point. */
export function parseDollars(text: string, flag: string): number {
  const cleaned = text.trim().replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(cleaned);
  const cents = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  if (!Number.isSafeInteger(cents)) {
    throw new UsageError(`${flag} "${text}" is not an amount in dollars`, {
      hint: `Give dollars with at most two decimals, e.g. ${flag} 250 or ${flag} 249.99.`,
    });
  }
  return cents;
}

function parseWholeNumber(text: string, flag: string, unit: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new UsageError(`${flag} "${text}" is not a whole number of ${unit}`, {
      hint: `Give 0 or more, e.g. ${flag} ${flag === "--retries" ? DEFAULT_RETRIES : DEFAULT_RETRY_WAIT_SECONDS}.`,
    });
  }
  return value;
}
