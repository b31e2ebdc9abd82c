// --fit costs about a second of CPU a photo, a read a round trip: so before any photo is fitted, the shipments of the
// reports that have photos to fit are read (the same judgement as before an upload: preflight in send-report.ts), a
// few at a time. A report found done (already stored, the ledger confirmed, refused by status or window) is not
// fitted, and that verdict stands for the upload phase; one to be sent is fitted, and read again just before its
// upload, so the verdict acted on is fresh (a set-2 window can close while a long batch fits).
import type { Deps } from "../deps.js";
import { InterruptedError } from "../errors.js";
import { mapLimit } from "../batch/pool.js";
import type { PreparedReport } from "./prepare-reports.js";
import { isFatal, preflight, type ReportOutcome } from "./send-report.js";
import type { SendBase } from "./settled-ledger.js";
import { SETTLE_READS } from "./settle-earlier.js";

/**
 * The reports (by index) found done before fitting, with their outcome, `decided` among them (reports refused before
 * any read: not read); the others are left to the upload phase.
 */
export async function readBeforeFitting(
  deps: Deps,
  reports: readonly PreparedReport[],
  base: SendBase,
  rerun: string,
  decided: ReadonlyMap<number, ReportOutcome>,
): Promise<Map<number, ReportOutcome>> {
  const known = new Map(decided);
  const toRead = reports.flatMap((r, i) => (r.pending && !known.has(i) ? [i] : []));
  if (toRead.length === 0) return known;
  // Quiet: a report to be sent is read again before its upload, and what that read finds is said then.
  const ctx = { ...base, log: () => undefined };
  try {
    await mapLimit(
      toRead,
      SETTLE_READS,
      async (i) => {
        const checked = await preflight(ctx, reports[i]!);
        if (checked.kind === "done") known.set(i, checked.outcome);
      },
      () => !deps.signal.aborted,
    );
  } catch (err) {
    if (isFatal(err) || !deps.signal.aborted) throw err;
  }
  if (deps.signal.aborted) {
    throw new InterruptedError("interrupted while the shipments were being read, before the photos were fitted: nothing was sent", {
      hint: `To finish, run the same command again:\n  ${rerun}`,
    });
  }
  return known;
}
