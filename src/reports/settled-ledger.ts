// The ledger around a run's uploads, single or batch: opened and locked (report-ledger.ts), its records checked to
// be this token's (report-owner.ts), what earlier runs left in flight for these reports settled (settle-earlier.ts),
// the photos compared with those other sets sent (reused-photos.ts), then the uploads, then the ledger closed
// (every outcome written).
import { serviceNow } from "../api/service-clock.js";
import type { Deps } from "../deps.js";
import type { PreparedReport } from "./prepare-reports.js";
import { openReportLedger, reportKey } from "./report-ledger.js";
import { confirmReportLedgerOwner } from "./report-owner.js";
import { isFatal, type SendContext } from "./send-report.js";
import { settleEarlierUploads, type Earlier } from "./settle-earlier.js";
import type { UploadPlan } from "./upload-plan.js";
import type { ReportOutcome } from "./report-outcome.js";
import { findReusedPhotos } from "./reused-photos.js";
import { reusedOutcomes } from "./reused-refusal.js";

/** What every upload of the run shares; the caller adds its progress and talk. */
export type SendBase = Pick<SendContext, "api" | "set" | "now" | "localNow" | "sleep" | "signal" | "ledger"> & { earlier: ReadonlyMap<string, Earlier> };

/**
 * Runs `work` with the ledger open and settled. `refused` holds the reports (by index) refused before anything is
 * sent, for photos another set sent (none with --allow-reused): not to be sent, nor fitted.
 */
export async function withSettledLedger<T>(
  deps: Deps,
  options: UploadPlan,
  reports: readonly PreparedReport[],
  work: (base: SendBase, refused: ReadonlyMap<number, ReportOutcome>) => Promise<T>,
): Promise<T> {
  const api = await deps.api();
  const ledger = await openReportLedger(deps, options.source);
  try {
    // Reports recorded as stored by another token are skipped only once their shipments say so (exit 2 otherwise).
    await confirmReportLedgerOwner(ledger, { api, call: { signal: deps.signal }, say: (text) => deps.io.err(text) });
    const keys = new Set(reports.map((r) => reportKey(r.target.shipmentId, options.set)));
    const earlier = await settleEarlierUploads(deps, ledger, api, { keys, wait: options.wait, isFatal });
    const reused = await findReusedPhotos({ ledger, set: options.set, earlier, signal: deps.signal }, reports);
    const refused = reusedOutcomes(deps, options.set, reports, reused, options.allowReused);
    return await work({
      api,
      set: options.set,
      // Windows are judged on the service's clock, learnt from its answers' Date header (the shipment read).
      now: () => serviceNow(api.serviceClockOffsetMs?.(), deps.clock),
      localNow: () => deps.clock.now(),
      sleep: (ms) => deps.clock.sleep(Math.max(0, ms), deps.signal),
      signal: deps.signal,
      ledger,
      earlier,
    }, refused);
  } finally {
    await ledger.close();
  }
}
