// A run's record in its organization's ledger (ledger/input-ledger.ts): the input is the file's real path (a results or
// errors file is part of its original: the original's), held against other runs of the same input; a copy of the
// file, or the same file under another name, is another input whose rows have the same keys (ledger/copy-guard.ts).
// Its records are checked to be this organization's (ledger/owner.ts) before any is trusted: the recorded ids, with
// the titles (or names) the file gives them. Reading the file again for that happens only when the token is not the
// one that wrote the ledger (a rotated token, another organization, a restarted sandbox). A dry run reads the same
// record, read-only (nothing held, no line written): it decides each row as the run would.
import { realpath } from "node:fs/promises";
import type { BatchKind } from "../csv/columns.js";
import type { BatchRun } from "./batch-run.js";
import type { CallOptions } from "../api/client-types.js";
import type { Deps } from "../deps.js";
import type { SendOptions } from "./run-options.js";
import { InputLedger, type RowState } from "../ledger/input-ledger.js";
import { confirmLedgerOwner, ownedReader, seenBy, type OwnedRecord } from "../ledger/owner.js";
import { settleWindowOf } from "../ledger/settle-window.js";
import { openScan, type ScanSpec, type ValidBase } from "../csv/scan.js";
import { originalNamedBy } from "../csv/origin-columns.js";
import { serviceFlags } from "../output/shell-quote.js";

type Kind = Exclude<BatchKind, "address-verify">;

/**
 * The records of a CSV's rows, with the name the service holds for each (undefined: its existence alone is checked):
 * each kind's own (addresses/address-spec.ts, shipments/shipment-spec.ts), read by recordsOf.
 */
export type CsvRecords = (run: BatchRun, ledger: InputLedger) => Promise<OwnedRecord[]>;

/** The records of the rows of `spec`'s scan that the ledger holds created or updated, each labelled by `labelOf`. */
export async function recordsOf<V extends ValidBase>(run: BatchRun, ledger: InputLedger, spec: ScanSpec<V>, labelOf: (row: V, state: RowState) => string | undefined): Promise<OwnedRecord[]> {
  const out: OwnedRecord[] = [];
  let scan;
  try {
    scan = await openScan(run.source, spec);
  } catch {
    // The file's own problems are reported by the run's first pass; the ids are then checked for existence only.
    return out;
  }
  for await (const row of scan.rows) {
    if (!row.ok) continue;
    const state = ledger.row(row.key);
    if (state?.state === "created" || state?.state === "updated") out.push({ id: state.id, label: labelOf(row, state) });
  }
  return out;
}

/**
 * The input a CSV run's entries name: the file's real path (a symlink or another spelling is the same input), or its
 * original's for a results or errors file (its rows are the original's, under the same keys), or "stdin".
 */
export async function csvInputName(run: Pick<BatchRun, "source">): Promise<string> {
  const original = await originalNamedBy(run.source);
  if (original !== undefined) return original === "stdin" ? original : realpath(original).catch(() => original);
  return run.source.stdin ? "stdin" : realpath(run.source.path).catch(() => run.source.path);
}

/** Opens a CSV run's ledger (read-only for a dry run), its records checked to be this organization's before any is trusted. */
export async function openCsvLedger(run: BatchRun, kind: Kind, records: CsvRecords): Promise<InputLedger> {
  return openRunLedger(run, { kind, source: await csvInputName(run), records: (ledger) => records(run, ledger) });
}

/**
 * Opens the ledger of a run of `kind` on the input named `source` (a CSV file, a JSON file, stdin, the flags):
 * read-only for a dry run; `check` runs first (the items' copy guard), then the records are confirmed to be this
 * organization's. Closed again when either refuses.
 */
export async function openRunLedger(
  run: { deps: Deps; call: CallOptions; options: Pick<SendOptions, "dryRun" | "forceNew"> },
  o: { kind: Kind; source: string; records: (ledger: InputLedger) => Promise<OwnedRecord[]>; check?: (ledger: InputLedger) => Promise<void> },
): Promise<InputLedger> {
  const { deps, options } = run;
  const connection = await deps.connection();
  const api = await deps.api();
  const ledger = await InputLedger.open(deps.env, {
    kind: o.kind,
    source: o.source,
    target: { baseUrl: connection.baseUrl, token: connection.token, ledger: connection.ledger, sees: seenBy(api, run.call), say: (text) => deps.io.err(text) },
    window: await settleWindowOf(connection, deps.env),
    serviceFlags: serviceFlags(deps.globals),
    readOnly: options.dryRun,
    forceNew: options.forceNew,
  });
  try {
    await o.check?.(ledger);
    if (!ledger.ownerConfirmed) {
      const owned = o.kind === "address-add" || o.kind === "address-update" ? "address" : "shipment";
      await confirmLedgerOwner(ledger, { kind: owned, records: () => o.records(ledger), read: ownedReader(api, owned, run.call), say: (text) => deps.io.err(text) });
    }
  } catch (e) {
    await ledger.close();
    throw e;
  }
  return ledger;
}
