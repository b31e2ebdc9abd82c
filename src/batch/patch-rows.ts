// The batch that `shipment update --csv` and `address update --csv` share: every row names a stored record by id and
// carries all its fields, and is sent as its own PATCH. Rows are validated first; then each row's current record is
// read and the row compared with it (batch/update-plan.ts): only the rows that change something are sent, their
// addresses verified once each. PATCH with the whole body is idempotent: the ledger only spares a rerun the rows
// already updated with this very content, and a row whose answer was lost is simply sent again on a rerun (no
// read-back needed).
import { AddressSet, type Decision } from "./address-set.js";
import type { CallOptions } from "../api/client-types.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { ScanSpec } from "../csv/scan.js";
import type { Mapping } from "../csv/table-cells.js";
import type { BatchRun } from "./batch-run.js";
import { verifyDistinct, type Ready } from "./before-send.js";
import { firstPass } from "./first-pass.js";
import type { Sends } from "./dry-run-report.js";
import type { ResultWords } from "./results.js";
import type { RowJob } from "./write-sender.js";
import { sendRowPass, type ChangedRow } from "./row-run.js";
import { validatePass } from "./validate-pass.js";
import { readCurrent, reportPlan, UpdatePlan, type Comparison } from "./update-plan.js";

/** A row of an update file: valid, with the id of the record it replaces. */
type UpdateRow = ChangedRow & { id?: number; mappings: readonly Mapping[] };

export interface PatchRows<V extends UpdateRow, P, R> {
  /** The file's rows, read with their ledger keys (`keys`) or without (a first run skips hashing them twice). */
  spec(keys: boolean): ScanSpec<V>;
  words: ResultWords;
  /** "shipment update", "address update": for the resume line. */
  command: string;
  sends: Sends;
  /** The CSV column behind a field key of a 422. */
  columnFor(field: string): string;
  /** The content the ledger records as sent, to know a row already updated with it. */
  hash(row: V): string;
  /** Adds the row's addresses to those verified before anything is sent. */
  addAddresses(row: V, addresses: AddressSet): void;
  /** The body once verification decided its addresses, or why it cannot be sent. */
  ready(row: V, decisions: Map<string, Decision> | undefined): Ready<P>;
  send(id: number, payload: P, call: CallOptions): Promise<unknown>;
  /** Reads the record a row updates, as it is now. */
  current(id: number, call: CallOptions): Promise<R>;
  /** What the row, as it would be sent, changes in that record. */
  compare(row: V, record: R): Comparison;
  /** Whether the record holds something an update may clear (a shipment's price). */
  priced(record: R): boolean;
}

export async function patchRows<V extends UpdateRow, P, R>(run: BatchRun, ledger: InputLedger, patch: PatchRows<V, P, R>): Promise<number> {
  const { deps, outcomes } = run;
  const addresses = new AddressSet();
  // A dry run needs the rows' keys only to look them up in the ledger (read-only, as the run would read it).
  const spec = patch.spec(!run.options.dryRun || ledger.hasRows);
  const updatedAs = (row: V & { key: string }) => {
    const state = ledger.row(row.key);
    return state?.state === "updated" && state.hash === patch.hash(row) ? state : undefined;
  };
  const ids = new Set<number>();
  const validationSpec = patch.spec(ledger.hasRows);
  const { validation, doneEarlier, finish, refused } = await firstPass(run, ledger, {
    scan: validationSpec,
    finish: { words: patch.words, command: patch.command, spec },
    done: (row) => updatedAs(row) !== undefined,
    onValid: (row, done) => {
      if (!done) ids.add(row.id!);
    },
  });
  // A run refused for invalid rows read no record: its document has no plan (only the send pass's finish gives it).
  if (refused !== undefined) return refused;
  const plan = new UpdatePlan({ noun: patch.sends, idKey: patch.words.idKey });

  // The plan: every row compared with its record as it is now, and only the rows that change something go on (their
  // addresses verified, then sent).
  const current = await readCurrent(run, plan, ids, patch.current);
  await validatePass(run.source, validationSpec, deps.signal, (row) => {
    if (updatedAs(row) !== undefined) return;
    const entry = plan.decide(row.row, row.id!, current.get(row.id!), (record) => patch.compare(row, record), patch.priced);
    if (entry.status === "update") patch.addAddresses(row, addresses);
  });
  current.clear();
  reportPlan(run, plan, doneEarlier);

  const decisions = await verifyDistinct(run, ledger, addresses);
  return sendRowPass<V, RowJob>(run, ledger, {
    spec,
    validation,
    done: "updated",
    sends: patch.sends,
    columnFor: patch.columnFor,
    prepare: (row, base) => {
      const state = updatedAs(row);
      if (state !== undefined) return { outcome: { status: "skipped", ...base, id: state.id } };
      // A row the plan has not seen (the file changed under the run) is sent, as one that could not be compared.
      if (plan.of(row.row)?.status === "unchanged") return { outcome: { status: "unchanged", ...base, id: row.id } };
      const ready = patch.ready(row, decisions);
      if ("error" in ready) return { outcome: { status: "failed", ...base, error: ready.error, unavailable: ready.unavailable } };
      const id = row.id!;
      const body = { id, ...ready.payload } as Record<string, unknown>;
      return { job: { key: row.key, hash: patch.hash(row), row: row.row, ...base, body, send: () => patch.send(id, ready.payload, run.call).then(() => id) } };
    },
    // PATCH is safe to repeat: a lost answer needs no reconciliation, only another run (the row stays "sending").
    settleLost: async (sender) => {
      for (const r of sender.lost) outcomes.update(r.row, { error: "the answer was lost; PATCH is safe to repeat: run the same command again" });
    },
    finish: (extra) => finish({ ...extra, plan }),
  });
}
