// Turns why a payment run stopped into the run's status and the error main() reports (message, what to do next,
// exit code). Exit codes come from src/errors.ts: 5 payment refused, 7 unavailable after retries or a payment that
// may still be going through, 8 when some sessions were paid before the stop, 130 interrupted; any other refusal
// keeps the exit code of its own error.
import { CliError, ExitCode, InterruptedError, PartialError, messageOf } from "../errors.js";
import { formatUsd } from "../output/money.js";
import { formatSettleTime } from "../output/time-format.js";
import type { RunStatus } from "./checkout-model.js";
import type { PayResult, Stop } from "./pay.js";

export interface Conclusion {
  status: RunStatus;
  error?: CliError;
}

export interface ConcludeContext {
  retries: number;
  /** How many sessions the run priced. */
  sessions: number;
  /** US cents charged by this run so far. */
  charged: number;
  /** The command that pays what is left (unpaid and unknown), if anything is. */
  rerun?: string;
  /** Shipments of this run an earlier run's payment may still be paying: neither priced nor paid (in `unknown`). */
  held?: readonly number[];
  /** The run was stopped (Ctrl-C) after its last payment was answered. */
  interrupted?: boolean;
}

export function conclude(result: PayResult, context: ConcludeContext): Conclusion {
  const lines = [idLine("Paid", result.paid, context.charged), idLine("Not paid", result.unpaid), idLine("Unknown", result.unknown)];
  const hintWith = (next?: string) => [...lines, nextStep(next, context.rerun, result.unknown.length > 0 ? result.settleAt : undefined)].filter((l) => l !== "").join("\n");
  if (!result.stop) {
    if (context.interrupted) {
      const message = `interrupted; the payment already sent was answered before the run stopped: paid ${formatUsd(context.charged)} for ${result.paid.length} shipment${result.paid.length === 1 ? "" : "s"}`;
      return { status: "interrupted", error: new InterruptedError(message, { hint: hintWith() }) };
    }
    const held = context.held ?? [];
    if (held.length === 0) return { status: "paid" };
    const message = `${held.length === 1 ? `shipment ${held[0]}` : `shipments ${held.join(", ")}`} may still be being paid by an earlier run's payment, so ${held.length === 1 ? "it was" : "they were"} not paid again` +
      (result.settleAt ? ` (that payment can go through until ${formatSettleTime(result.settleAt)})` : "");
    if (result.paid.length > 0) return { status: "partly-paid", error: new PartialError(`paid ${result.paid.length} of ${result.paid.length + held.length} shipments; ${message}`, { hint: hintWith() }) };
    const error = new CliError(message, { hint: hintWith() });
    error.exitCode = ExitCode.Unavailable;
    return { status: "failed", error };
  }
  const { session, reason } = result.stop;
  const stopped = describeStop(reason, session.number, context);
  const hint = hintWith(stopped.next);
  // The error the stop came from, if any: main() and --json name the failure by it (errors.ts, namedBy).
  const cause = "error" in reason ? reason.error : undefined;

  if (reason.kind === "interrupted") return { status: "interrupted", error: new InterruptedError(stopped.message, { hint }) };
  if (result.paid.length > 0) {
    const all = result.paid.length + result.unpaid.length + result.unknown.length;
    const message = `paid ${result.paid.length} of ${all} shipments, then stopped: ${stopped.message}`;
    return { status: "partly-paid", error: new PartialError(message, { hint, cause }) };
  }
  const error = new CliError(stopped.message, { hint, cause });
  error.exitCode = stopped.exitCode;
  const refused = reason.kind === "declined" || reason.kind === "no-payment-method";
  return { status: refused ? "payment-refused" : "failed", error };
}

interface StopText {
  message: string;
  /** What to do before rerunning, phrased to be followed by ", then rerun". */
  next?: string;
  exitCode: CliError["exitCode"];
}

function describeStop(reason: Stop, session: number, context: ConcludeContext): StopText {
  switch (reason.kind) {
    case "declined":
      return {
        message: `${messageOf(reason.error)}; no further session was attempted`,
        next:
          "The service has invalidated the payment method, so every further payment fails until it is fixed. " +
          "Fix the payment method in the service's dashboard",
        exitCode: ExitCode.Payment,
      };
    case "no-payment-method":
      return {
        message: messageOf(reason.error),
        next: "Add or fix the organization's payment method in the service's dashboard",
        exitCode: ExitCode.Payment,
      };
    case "retries-exhausted":
      return {
        message:
          `the payment of session ${session} still failed after ${context.retries} ` +
          `${context.retries === 1 ? "retry" : "retries"}: ${messageOf(reason.error)}`,
        next: "This is usually temporary: wait a few minutes (or pass a longer --retry-wait)",
        exitCode: ExitCode.Unavailable,
      };
    case "lost": {
      const { paid, unpaid, unknown } = reason.found;
      return {
        message:
          `the answer to the payment of session ${session} was lost, and it was not sent again in this run ` +
          `(the request may still have been going through): ${messageOf(reason.error)}; read back ` +
          `${reason.waitedMs / 1000} s later: ${paid.length} paid, ${unpaid.length} not paid yet (still Draft), ` +
          `${unknown.length} could not be read` +
          (session < context.sessions ? "; no further session was attempted" : ""),
        // The rerun settles the payment first (earlier-payments.ts): when it is said is in the hint.
        exitCode: ExitCode.Unavailable,
      };
    }
    case "price-rose":
      return {
        message:
          `the price of session ${session} rose from ${formatUsd(reason.confirmed)} to ${formatUsd(reason.now)} ` +
          `since it was confirmed, so it was not paid`,
        next: "Look at the new prices",
        // Not transient (a retry would meet the same price) and nothing was charged for it: the service's answer
        // was refused by shipctl, on the person's behalf.
        exitCode: ExitCode.Rejected,
      };
    case "interrupted":
      return {
        message: reason.mayHaveCharged
          ? `interrupted while session ${session} was being paid: it may have been charged`
          : `interrupted before session ${session} was paid`,
        exitCode: ExitCode.Interrupted,
      };
    case "error": {
      const err = reason.error;
      return {
        message: `session ${session} was not paid: ${messageOf(err)}`,
        next: err instanceof CliError && err.hint ? err.hint.replace(/\.$/, "") : undefined,
        exitCode: err instanceof CliError ? err.exitCode : ExitCode.Failure,
      };
    }
  }
}

/**
 * What to do next. `settleAt`: a payment may still be going through until then; a rerun before it waits for it (and
 * never pays those shipments meanwhile), a rerun after it settles it at once.
 */
function nextStep(next: string | undefined, rerun: string | undefined, settleAt: Date | undefined): string {
  const safe = "it skips what is already paid, so it never charges twice";
  const how = settleAt
    ? ` after ${formatSettleTime(settleAt)}, when the payment in flight can no longer be going through (a rerun sooner waits until then); ${safe}`
    : ` (${safe})`;
  if (next && rerun) return `${next}, then rerun${how}:\n  ${rerun}`;
  if (rerun) return `Rerun${how}:\n  ${rerun}`;
  return next ? `${next}.` : "";
}

function idLine(label: string, ids: readonly number[], cents?: number): string {
  if (ids.length === 0) return "";
  return `${label}: ${ids.join(", ")}${cents === undefined ? "" : ` (${formatUsd(cents)})`}`;
}
