// The owner check of a CSV run's journal (journal-owner.ts): the recorded ids, with the titles (or names) the file
// gives them. It reads the file once more, which happens only when the token differs from the one that wrote the
// journal (a rotated token, another organization, a restarted sandbox).
import type { BatchKind } from "./columns.js";
import type { BatchRun } from "./context.js";
import { shortHash, type Journal, type RowState } from "./journal.js";
import { confirmJournalOwner, ownedReader, type OwnedRecord } from "./journal-owner.js";
import { addressScanSpec } from "./address-spec.js";
import { openScan, type ScanSpec, type ValidBase } from "./scan.js";
import { shipmentScanSpec } from "./shipment-spec.js";
import { shipmentContent } from "./shipment-row.js";

async function recordsOf<V extends ValidBase>(run: BatchRun, journal: Journal, spec: ScanSpec<V>, labelOf: (row: V, state: RowState) => string | undefined): Promise<OwnedRecord[]> {
  const out: OwnedRecord[] = [];
  let scan;
  try {
    scan = await openScan(run.source, spec);
  } catch {
    // The file's own problems are reported by the run's first pass; the ids are then checked for existence only.
    return out;
  }
  try {
    for await (const row of scan.rows) {
      if (!row.ok) continue;
      const state = journal.row(row.key);
      if (state?.state === "created" || state?.state === "updated") out.push({ id: state.id, label: labelOf(row, state) });
    }
  } finally {
    scan.close();
  }
  return out;
}

export async function confirmCsvJournalOwner(run: BatchRun, kind: Exclude<BatchKind, "address-verify">, journal: Journal): Promise<void> {
  if (journal.ownerConfirmed) return;
  const api = await run.deps.api();
  const owned = kind === "address-add" ? "address" : "shipment";
  await confirmJournalOwner(journal, {
    kind: owned,
    records: () =>
      kind === "address-add"
        ? recordsOf(run, journal, addressScanSpec(run.tables, { keys: true, kind }), (row) => row.payload.name)
        : recordsOf(run, journal, shipmentScanSpec(run.tables, { update: kind === "shipment-update", keys: true }), (row, state) =>
            // An update row edited since it was sent names a title the service does not hold yet: existence only.
            state.state === "updated" && state.hash !== shortHash(shipmentContent(row)) ? undefined : row.payload.title,
          ),
    read: ownedReader(api, owned, run.call),
    say: (text) => run.deps.io.err(text),
  });
}
