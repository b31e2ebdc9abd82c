// The owner check of a report journal, by the rule of the CSV journals (src/ledger/owner.ts): when this run's
// token is not the one that recorded reports as stored (another organization on the same URL, a rotated token, a
// journal from before fingerprints), some of those shipments are read back before any report is skipped as stored.
// A shipment this token cannot see, or one that does not hold the set recorded as stored (a sandbox restarted
// since: its shipments are back at Delivered), stops the batch before anything is read or sent (exit 2).
import { ForbiddenError, NotFoundError } from "../api/errors.js";
import type { ApiClient, CallOptions } from "../api/types.js";
import { shipmentStatusName } from "../contract/index.js";
import { confirmJournalOwner } from "../ledger/owner.js";
import type { ReportJournal } from "../ledger/report-journal.js";
import { holdsReportSet } from "./window.js";

export async function confirmReportJournalOwner(
  journal: ReportJournal,
  options: { api: ApiClient; call: CallOptions; say: (text: string) => void },
): Promise<void> {
  if (journal.ownerConfirmed) return;
  await confirmJournalOwner(journal, {
    kind: "shipment",
    // Titles are not recorded: each shipment is checked for existence and for holding the set recorded as stored.
    records: async () => [...journal.claimedIds()].map((id) => ({ id })),
    read: async (id) => {
      const set = journal.storedSet(id);
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
