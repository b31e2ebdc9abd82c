// A CSV run's ledger book: found where the input's runs keep it (ledger/location.ts), locked against other runs of
// the same input under any name or as a copy (ledger/input-identity.ts), and its records checked to be this
// organization's (ledger/owner.ts) before any is trusted: the recorded ids, with the titles (or names) the file
// gives them. Reading the file again for that happens only when the token is not the one that wrote the book (a
// rotated token, another organization, a restarted sandbox).
import type { BatchKind } from "../csv/columns.js";
import type { BatchRun } from "./batch-run.js";
import { Book, type RowState } from "../ledger/book.js";
import { shortHash } from "../ledger/book-lines.js";
import { inputLocks } from "../ledger/input-identity.js";
import { locateJournal } from "../ledger/location.js";
import { confirmJournalOwner, ownedReader, type OwnedRecord } from "../ledger/owner.js";
import { settleWindowOf } from "../ledger/settle-window.js";
import { addressContent, addressScanSpec } from "../addresses/address-spec.js";
import { openScan, type ScanSpec, type ValidBase } from "../csv/scan.js";
import { originalNamedBy } from "../csv/origin-columns.js";
import { shipmentScanSpec } from "../shipments/shipment-spec.js";
import { shipmentContent } from "../shipments/shipment-row.js";

type Kind = Exclude<BatchKind, "address-verify">;

async function recordsOf<V extends ValidBase>(run: BatchRun, book: Book, spec: ScanSpec<V>, labelOf: (row: V, state: RowState) => string | undefined): Promise<OwnedRecord[]> {
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
      const state = book.row(row.key);
      if (state?.state === "created" || state?.state === "updated") out.push({ id: state.id, label: labelOf(row, state) });
    }
  } finally {
    scan.close();
  }
  return out;
}

async function confirmCsvOwner(run: BatchRun, kind: Kind, book: Book): Promise<void> {
  if (book.ownerConfirmed) return;
  const api = await run.deps.api();
  const owned = kind === "address-add" || kind === "address-update" ? "address" : "shipment";
  await confirmJournalOwner(book, {
    kind: owned,
    records: () =>
      kind === "address-add" || kind === "address-update"
        ? recordsOf(run, book, addressScanSpec(run.tables, { keys: true, kind }), (row, state) =>
            // An update row edited since it was sent names a name the service does not hold yet: existence only.
            state.state === "updated" && state.hash !== shortHash(addressContent(row)) ? undefined : row.payload.name,
          )
        : recordsOf(run, book, shipmentScanSpec(run.tables, { update: kind === "shipment-update", keys: true }), (row, state) =>
            // An update row edited since it was sent names a title the service does not hold yet: existence only.
            state.state === "updated" && state.hash !== shortHash(shipmentContent(row)) ? undefined : row.payload.title,
          ),
    read: ownedReader(api, owned, run.call),
    say: (text) => run.deps.io.err(text),
  });
}

/** Opens the run's book, its records checked to be this organization's before any is trusted. */
export async function openCsvBook(run: BatchRun, kind: Kind): Promise<Book> {
  const { deps, options, source, connection } = run;
  // A results or errors file is part of its original: the original's book, which names the original.
  const original = await originalNamedBy(source);
  const path = await locateJournal(kind, source, { results: options.results, cwd: deps.cwd, env: deps.env, original });
  const book = await Book.open(path, {
    kind,
    source: original ?? (source.stdin ? "stdin" : source.path),
    target: { baseUrl: connection.baseUrl, profile: connection.profile, token: connection.token },
    window: await settleWindowOf(connection, deps.env),
    locks: await inputLocks(kind, source, deps.env),
  });
  try {
    await confirmCsvOwner(run, kind, book);
  } catch (e) {
    await book.close();
    throw e;
  }
  return book;
}
