// What became of one report, as a batch's results and a single upload's message say it; the outcomes of reports not
// sent because a run before this one (of this input, or another's) left their upload in flight; the service's refusal.
import { REPORT, type ReportSet } from "../contract/index.js";
import { ExitCode, messageOf } from "../errors.js";
import type { InFlight } from "../ledger/input-ledger.js";
import { formatSettleTime } from "../output/time-format.js";
import type { PreparedReport } from "./prepare-reports.js";
import type { Earlier } from "./settle-earlier.js";

/** `unknown`: sent, and its answer lost; the service may still be applying it (in flight), so it is not sent again. */
export type ReportResult = "stored" | "already_stored" | "skipped" | "refused" | "failed" | "unknown" | "interrupted";

export interface ReportOutcome {
  shipmentId: number;
  set: ReportSet;
  folder: string;
  result: ReportResult;
  /** One sentence for people: why, or what happened. */
  message: string;
  /** 0 for stored/already stored/skipped; otherwise the exit code this outcome alone would give. */
  exitCode: number;
  /** Bytes of photos sent (0 when nothing was sent). */
  bytes: number;
  /** What the shipment read before sending said about the time window, when it was read. */
  window?: string;
  /** The error behind a failure, for single uploads to rethrow as is. */
  error?: unknown;
  /** `unknown` only: after this moment the service can no longer be applying it, and a rerun settles it. */
  settleAt?: Date;
}

export function outcomeMaker(ctx: { set: ReportSet }, report: PreparedReport) {
  const base = { shipmentId: report.target.shipmentId, set: ctx.set, folder: report.target.label, bytes: 0 };
  return (result: ReportResult, message: string, exitCode: number = ExitCode.Ok, extra: Partial<ReportOutcome> = {}): ReportOutcome => ({
    ...base,
    result,
    message,
    exitCode,
    ...extra,
  });
}

export type OutcomeMaker = ReturnType<typeof outcomeMaker>;

/** A report another input's run holds in flight: only a run of that input settles it, so it is not sent. */
export function inFlightElsewhere(input: string, state: InFlight, done: OutcomeMaker): ReportOutcome {
  const settleAt = new Date(state.settle_at);
  const message =
    `not sent: another run's upload of it (${input}) is in flight (its answer not recorded), and the service may still be applying it until ` +
    `${formatSettleTime(settleAt)}; run that upload again to settle it`;
  return done("unknown", message, ExitCode.Unavailable, { settleAt });
}

/** What this run says of a report an earlier run left in flight, settled before anything was sent. */
export function earlierOutcome(earlier: Earlier, done: OutcomeMaker): ReportOutcome {
  if (earlier.state === "applied") return done("skipped", "already stored: the upload an earlier run left in flight arrived (its shipment now holds the set)");
  if (earlier.state === "in-flight") {
    const message = `not sent: an earlier run's upload of it is still in flight (its answer never came), and the service may still be applying it until ${formatSettleTime(earlier.settleAt)}; run the same command again after then to settle it`;
    return done("unknown", message, ExitCode.Unavailable, { settleAt: earlier.settleAt });
  }
  return done("unknown", `not sent: an earlier run's upload of it lost its answer and could not be settled (${earlier.reason}); run the same command again`, ExitCode.Unavailable);
}

/** A refusal in the operator's terms: the service keys its reasons `box.2`, `art.5`; the operator knows the side and the file. */
export function refusalText(err: unknown, report: PreparedReport): string {
  const errors = (err as { errors?: Record<string, string[]> }).errors;
  if (!errors || Object.keys(errors).length === 0) return messageOf(err);
  return Object.entries(errors)
    .map(([key, messages]) => {
      const m = /^(box|art)(?:\.(\d+))?/.exec(key);
      const side = m?.[2] === undefined ? undefined : REPORT.sides[Number(m[2])];
      const photo = side ? report.photos.find((p) => p.group === m![1] && p.side === side) : undefined;
      const where = photo ? `${key} (${photo.group} ${photo.side}, ${photo.file})` : key;
      return `${where}: ${messages.join(" ")}`;
    })
    .join("; ");
}
