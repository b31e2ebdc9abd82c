// Will the service take this set now? Set 1 needs the shipment Delivered (7) and at most 30 days since delivered_at;
// set 2 needs Arrived (11) and at most 24 hours since arrived_at. Judged from a shipment read before uploading, so an
// operator hears "the window closed 3 hours ago" instead of an opaque refusal, and nothing is sent when the answer
// is certain. `now` is the service's now (local time moved by the offset learnt from the `Date` header of the
// shipment read, see api/service-clock.ts): a window is open or closed on the service's clock, which may be far from
// ours (the sandbox's movable clock, a machine without NTP). Near the edge the two may still differ by a second or
// two (or by any amount when the service sent no `Date`), so there the service decides.
import { REPORT, ShipmentStatus, shipmentStatusName, type ReportSet, type StoredShipment } from "../contract/index.js";
import { formatDuration, formatTimestamp, parseTimestamp } from "../output/time-format.js";

/** Closer to the window's end than this, our reading of the service's clock may be off: upload and let the service decide. */
export const CLOCK_SKEW_MS = 2 * 60 * 1000;

export type WindowVerdict =
  /** Open: `closesAt` and how long is left. */
  | { kind: "open"; closesAt: Date; leftMs: number; message: string }
  /** The service already holds this set (status Filed for set 1, Completed for set 2). */
  | { kind: "stored"; message: string }
  /** Certain refusal: nothing should be sent. */
  | { kind: "refused"; reason: "status" | "window"; message: string; hint: string }
  /** Cannot tell (missing timestamp, clock skew at the edge): upload and let the service answer. */
  | { kind: "unsure"; message: string };

// `as const` keeps each stamp a field name of StoredShipment.
const RULES = {
  1: {
    status: ShipmentStatus.Delivered,
    storedStatus: ShipmentStatus.Filed,
    stamp: "delivered_at",
    windowMs: REPORT.set1WindowMs,
    event: "delivery to the fulfillment address",
    windowText: "30 days",
  },
  2: {
    status: ShipmentStatus.Arrived,
    storedStatus: ShipmentStatus.Completed,
    stamp: "arrived_at",
    windowMs: REPORT.set2WindowMs,
    event: "arrival at the destination",
    windowText: "24 hours",
  },
} as const;

/**
 * Whether a shipment's status shows the service holds this set: the service moves a shipment to Filed when set 1
 * arrives and to Completed when set 2 does, and every status after Filed (Drop-Off, Shipped, Arrived, Completed) is
 * reached only through it, so a shipment already past Filed holds set 1 too.
 */
export function holdsReportSet(status: number, set: ReportSet): boolean {
  const stored = RULES[set].storedStatus;
  return set === 1 ? status >= stored && status <= ShipmentStatus.Completed : status === stored;
}

/** The set whose upload window a status opens: Delivered set 1, Arrived set 2; undefined for any other status. */
export function windowSetOf(status: number): ReportSet | undefined {
  return ([1, 2] as const).find((set) => RULES[set].status === status);
}

/**
 * When this shipment's window for `set` closes: 30 days after delivered_at (set 1), 24 hours after arrived_at (set 2);
 * undefined when the service gave no such time.
 */
export function windowClosesAt(shipment: Pick<StoredShipment, "delivered_at" | "arrived_at">, set: ReportSet): Date | undefined {
  const rule = RULES[set];
  const since = parseTimestamp(shipment[rule.stamp]);
  return since && new Date(since.getTime() + rule.windowMs);
}

export function assessWindow(shipment: StoredShipment, set: ReportSet, now: Date): WindowVerdict {
  const rule = RULES[set];
  const name = `shipment ${shipment.id}`;
  const status = `${shipmentStatusName(shipment.status)} (${shipment.status})`;
  if (holdsReportSet(shipment.status, set)) {
    return { kind: "stored", message: `the service already holds set ${set} of ${name} (status ${status})` };
  }
  if (shipment.status !== rule.status) {
    const wanted = `${shipmentStatusName(rule.status)} (${rule.status})`;
    const when = shipment.status < rule.status ? "it is not there yet" : "it has moved past it";
    return {
      kind: "refused",
      reason: "status",
      message: `set ${set} can be stored only while the shipment is ${wanted}; ${name} is ${status}: ${when}`,
      hint: shipment.status < rule.status ? `upload set ${set} once the shipment is ${shipmentStatusName(rule.status)}` : `the set ${set} window has passed`,
    };
  }
  const closesAt = windowClosesAt(shipment, set);
  if (!closesAt) {
    const given = shipment[rule.stamp];
    const what = given ? `its ${rule.stamp} "${given}" is not a time of the contract's form (YYYY-MM-DD HH:MM:SS, UTC)` : `the service gave no ${rule.stamp}`;
    return { kind: "unsure", message: `${name} is ${status} but ${what}: the time window cannot be checked here` };
  }
  const leftMs = closesAt.getTime() - now.getTime();
  const window = `${rule.windowText} after ${rule.event} (${rule.stamp} ${formatTimestamp(shipment[rule.stamp])})`;
  if (leftMs >= 0) {
    return { kind: "open", closesAt, leftMs, message: `the set ${set} window is open: ${formatDuration(leftMs)} left, until ${formatTimestamp(closesAt)}` };
  }
  if (-leftMs < CLOCK_SKEW_MS) {
    return { kind: "unsure", message: `the set ${set} window closed moments ago (${window}); the service decides` };
  }
  return {
    kind: "refused",
    reason: "window",
    message: `the set ${set} window closed ${formatDuration(-leftMs)} ago, at ${formatTimestamp(closesAt)}: set ${set} must be stored within ${window}`,
    hint: "the service refuses reports outside this window; contact the service if the photos must still be filed",
  };
}
