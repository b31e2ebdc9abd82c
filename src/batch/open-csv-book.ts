// A CSV run's journal, opened and checked to be this organization's (ledger/owner.ts): the recorded ids, with the
// titles (or names) the file gives them. It reads the file once more, which happens only when the token differs from the one that wrote the
// journal (a rotated token, another organization, a restarted sandbox).
import type { BatchKind } from "../csv/columns.js";
import type { BatchRun } from "./batch-run.js";
import { Journal, shortHash, type RowState } from "../ledger/journal.js";
import { locateJournal } from "../ledger/location.js";
import { confirmJournalOwner, ownedReader, tokenFingerprint, type OwnedRecord } from "../ledger/owner.js";
import { addressScanSpec } from "../addresses/address-spec.js";
import { openScan, type ScanSpec, type ValidBase } from "../csv/scan.js";
import { shipmentScanSpec } from "../shipments/shipment-spec.js";
import { shipmentContent } from "../shipments/shipment-row.js";

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

async function confirmCsvJournalOwner(run: BatchRun, kind: Exclude<BatchKind, "address-verify">, journal: Journal): Promise<void> {
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

/** Opens the run's journal, its records checked to be this organization's (journal-owner.ts) before any is trusted. */
export async function openJournal(run: BatchRun, kind: Exclude<BatchKind, "address-verify">): Promise<Journal> {
  const { deps, options, source, connection } = run;
  const path = await locateJournal(kind, source, { results: options.results, cwd: deps.cwd, env: deps.env });
  const owner = tokenFingerprint(connection.token);
  const journal = await Journal.open(path, kind, source.stdin ? "stdin" : source.path, { baseUrl: connection.baseUrl, profile: connection.profile, owner });
  try {
    await confirmCsvJournalOwner(run, kind, journal);
  } catch (e) {
    await journal.close();
    throw e;
  }
  return journal;
}
