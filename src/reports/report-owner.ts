// The owner check of a report ledger, by the rule of every ledger (src/ledger/owner.ts): when this run's token is
// not the one that recorded reports as stored (another organization on the same URL, a rotated token, a ledger whose mark
// is missing), some of those shipments are read back before any report is skipped as
// stored. A shipment this token cannot see, or one that does not hold the set recorded as stored (a sandbox restarted
// since: its shipments are back at Delivered), stops the run before anything is read or sent (exit 2).
import { ForbiddenError, NotFoundError } from "../api/api-errors.js";
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { shipmentStatusName, type ReportSet } from "../contract/index.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { confirmLedgerOwner } from "../ledger/owner.js";
import { parseReportKey } from "./report-ledger.js";
import { holdsReportSet } from "./window.js";

/** The highest set recorded as stored for a shipment (set 2 stored implies the shipment went past set 1). */
function storedSet(ledger: InputLedger, shipmentId: number): ReportSet | undefined {
  let highest: ReportSet | undefined;
  for (const [key, state] of ledger.entries()) {
    const report = parseReportKey(key);
    if (state.state === "stored" && report?.shipmentId === shipmentId && (highest === undefined || report.set > highest)) highest = report.set;
  }
  return highest;
}

export async function confirmReportLedgerOwner(ledger: InputLedger, options: { api: ApiClient; call: CallOptions; say: (text: string) => void }): Promise<void> {
  if (ledger.ownerConfirmed) return;
  await confirmLedgerOwner(ledger, {
    kind: "shipment",
    // Titles are not recorded: each shipment is checked for existence and for holding the set recorded as stored.
    records: async () => [...ledger.claimedIds()].map((id) => ({ id })),
    read: async (id) => {
      const set = storedSet(ledger, id);
      try {
        const shipment = await options.api.getShipment(id, options.call);
        if (set === undefined || holdsReportSet(shipment.status, set)) return shipment.title;
        return { mismatch: `is ${shipmentStatusName(shipment.status)} here, so its set ${set} recorded as stored is not` };
      } catch (e) {
        if (e instanceof NotFoundError || e instanceof ForbiddenError) return undefined;
        throw e;
      }
    },
    say: options.say,
  });
}
