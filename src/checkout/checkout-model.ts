// The state of one checkout run, shared by the steps (read back, price, pay) and by what is printed at the end.
import { SHIPMENTS_PER_CHECKOUT, ShipmentStatus, type StoredShipment } from "../contract/index.js";
import { CliError } from "../errors.js";

/** What a checkout run is asked to do: the command line's options, checked (commands/checkout/checkout.ts). */
export interface CheckoutPlan {
  /** Shipment ids in the order given, without duplicates. */
  ids: number[];
  /**
   * `--from`: a results file, or "-" for stdin, whose ids are read when the command runs (`ids` is empty until then).
   * A rerun command names the file again rather than the ids it held.
   */
  from?: string;
  /** Pay without asking. */
  yes: boolean;
  /** Refuse when the total exceeds this (US cents). */
  maxTotalCents?: number;
  /** Pay only when the total is exactly this (US cents): the total a quote showed (`--confirm-total`). */
  confirmTotalCents?: number;
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

export interface PricedShipment {
  id: number;
  title: string;
  /** US cents, as the price session answered. */
  cents: number;
}

/**
 * What became of one checkout session:
 * - "not-attempted": never sent (cancelled, over --max-total, or an earlier session stopped the run);
 * - "paid": the service confirmed it, or reading the shipments back proved it;
 * - "not-paid": sent and refused;
 * - "partly-paid" / "unknown": a lost answer that reading back could not settle for every shipment (those not shown
 *   paid stay in flight in the checkout ledger until the next run settles them).
 */
export type SessionOutcome = "not-attempted" | "paid" | "not-paid" | "partly-paid" | "unknown";

export interface CheckoutSession {
  /** 1-based, in the order sessions are paid. */
  number: number;
  shipments: PricedShipment[];
  /** US cents: the session's total as the price session answered. */
  total: number;
  outcome: SessionOutcome;
}

/** A shipment that was no longer a Draft when the run began: paid earlier, so skipped. */
export type SkippedShipment = Pick<StoredShipment, "id" | "title" | "status">;

/**
 * How the run ended; `status` in the --json document.
 * "paid": every session paid. "nothing-to-pay": every shipment was already paid before the run.
 * "cancelled": no at the prompt. "over-max-total": refused by --max-total.
 * "total-not-confirmed": refused by --confirm-total (the total priced now is not the one confirmed). "payment-refused": 402/403 before anything
 * was paid. "failed": stopped before anything was paid (409 after retries, a lost answer, another error), or nothing
 * paid because an earlier run's payment of the shipments may still be going through (`unknown`, `settle_at`).
 * "partly-paid": some sessions paid, then a stop (or shipments left unknown). "interrupted": Ctrl-C.
 */
export type RunStatus =
  | "paid"
  | "nothing-to-pay"
  | "cancelled"
  | "over-max-total"
  | "total-not-confirmed"
  | "payment-refused"
  | "failed"
  | "partly-paid"
  | "interrupted";

/** The shipments read, split into the Drafts a checkout prices and pays, and the rest it skips (paid already). */
export function draftsAndSkipped(stored: readonly StoredShipment[]): { drafts: StoredShipment[]; skipped: SkippedShipment[] } {
  const drafts = stored.filter((s) => s.status === ShipmentStatus.Draft);
  const skipped = stored.filter((s) => s.status !== ShipmentStatus.Draft);
  return { drafts, skipped };
}

/** Shipments (or their ids) in groups of at most SHIPMENTS_PER_CHECKOUT.max, in the order given. */
export function inGroups<T>(items: readonly T[], size: number = SHIPMENTS_PER_CHECKOUT.max): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}

export function sumCents(values: Iterable<number>): number {
  return [...values].reduce((sum, v) => sum + v, 0);
}

/**
 * Errors from the HTTP layer say what failed ("not found"); checkout adds which shipments it was about, keeping the
 * exit code and hint so main() still reports and maps it the same way.
 */
export function withContext(err: unknown, what: string): unknown {
  if (!(err instanceof CliError)) return err;
  const wrapped = new CliError(`${what}: ${err.message}`, { hint: err.hint, cause: err });
  wrapped.exitCode = err.exitCode;
  return wrapped;
}
