// What `shipment create --csv` does with a row edited since it was created (changed-rows.ts): reported and left as it
// is; with --update-changed, sent as an update of the shipment it created, as `shipment update --csv` sends a row
// (a PATCH of the whole shipment, through the ledger of the file's updates); with --force-new, created (the caller's
// usual path). Once updated, the create record holds the row's new print: a rerun finds it as created, unchanged,
// and sends nothing more. A run killed between the PATCH and that note finds the update recorded on its rerun (same
// content, same shipment) and does not send it again.
import type { Decision } from "../batch/address-set.js";
import { shipmentIdentity, type Shipment } from "../contract/index.js";
import { columnForPath } from "../csv/columns.js";
import type { BatchRun } from "../batch/batch-run.js";
import { openCsvLedger } from "../batch/open-csv-ledger.js";
import type { Outcome } from "../batch/outcomes.js";
import type { RowJob } from "../batch/write-sender.js";
import type { KeyedRow } from "../batch/settle-lost.js";
import { runRowSender } from "../batch/row-run.js";
import { addressHash, shortHash } from "../ledger/entry.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { changedText, changesText, unsureText, type ChangedVerdict, type RowPrint } from "./changed-rows.js";
import { shipmentRecords, withDecisions } from "./shipment-spec.js";
import type { ValidShipmentRow } from "./shipment-row.js";
import { serviceFlags } from "../output/shell-quote.js";

/** A changed row to send as an update of shipment `id`. */
export interface ChangedUpdate extends KeyedRow {
  id: number;
  /** As it is sent (addresses as verification decided). */
  payload: Shipment;
  /** The row's content hash with the shipment's id: the update's key in the ledger, as `shipment update --csv` makes it. */
  hash: string;
  changes: Outcome["changes"] & object;
  /** What the create record holds of the row once it is updated (none for a results file's row: create-from-csv.ts). */
  print?: RowPrint;
}

/** A changed, unsure or done row's outcome, or with --update-changed the update to send. */
export function editedDecision(
  s: ValidShipmentRow & { key: string },
  v: ChangedVerdict,
  o: { updateChanged: boolean; decisions: Map<string, Decision> | undefined; print: RowPrint | undefined },
): { outcome: Outcome } | { update: ChangedUpdate } {
  const base = { label: s.label, reference: s.reference };
  if (v.kind === "unsure") return { outcome: { status: "unsure", ...base, error: unsureText(v) } };
  if (v.kind === "done") return { outcome: { status: "skipped", ...base, id: v.id } };
  if (!o.updateChanged) return { outcome: { status: "changed", ...base, id: v.id, changes: v.changes, error: changedText(s.row, v) } };
  const ready = withDecisions(s, o.decisions);
  if ("error" in ready) return { outcome: { status: "failed", ...base, id: v.id, error: ready.error, unavailable: ready.unavailable } };
  const hash = shortHash(shipmentIdentity(s.payload, addressHash, { id: v.id }));
  return { update: { key: s.key, row: s.row, ...base, id: v.id, payload: ready.payload, hash, changes: v.changes, print: o.print } };
}

/** What a dry run's table says the update does. */
export function updateSays(u: ChangedUpdate): string {
  return `update shipment ${u.id}: ${u.changes.length > 0 ? changesText(u.changes) : "its content changed"}`;
}

/**
 * Sends the updates after the run's creates, one PATCH each, through the ledger of this file's updates. Returns why
 * the run stopped early (a refused token), if it did.
 */
export async function sendUpdates(run: BatchRun, created: InputLedger, updates: readonly ChangedUpdate[]): Promise<unknown> {
  if (updates.length === 0) return undefined;
  const { deps, outcomes } = run;
  const ledger = await openCsvLedger(run, "shipment-update", shipmentRecords({ update: true }));
  try {
    const api = await deps.api();
    const sender = await runRowSender<RowJob>(run, ledger, { done: "updated", columnFor: (field) => columnForPath(field.split(".")) });
    for (const u of updates) {
      if (!sender.running) break;
      const base = { label: u.label, reference: u.reference };
      // The create record learns the row's new content: a rerun finds it created as it is now.
      const noteUpdated = () => created.note([[u.key, { state: "created", id: u.id, ...u.print }]]);
      const state = ledger.row(u.hash);
      if (state?.state === "updated" && state.hash === u.hash) {
        noteUpdated();
        outcomes.set(u.row, { status: "skipped", ...base, id: u.id });
        continue;
      }
      const send = async () => {
        await api.updateShipment(u.id, u.payload, run.call);
        noteUpdated();
        return u.id;
      };
      await sender.offer({ key: u.hash, hash: u.hash, row: u.row, ...base, body: { id: u.id, ...u.payload }, send });
    }
    await sender.finish();
    for (const u of updates) {
      const now = outcomes.get(u.row);
      if (now === undefined) outcomes.set(u.row, { status: "pending", label: u.label, reference: u.reference, error: "not updated: the run stopped before it" });
      else if (now.status === "updated") outcomes.update(u.row, { changes: u.changes });
    }
    // PATCH is safe to repeat: a lost answer needs no read-back, only the same command again.
    for (const lost of sender.lost) outcomes.update(lost.row, { error: "the answer was lost; an update is safe to repeat: run the same command again" });
    notePrices(run, updates.filter((u) => outcomes.get(u.row)?.status === "updated").map((u) => u.id));
    return sender.stopped;
  } finally {
    await ledger.close();
  }
}

/**
 * The service may clear a shipment's price when it is updated (the sandbox does on every PATCH): a quote made before
 * the edit is gone. Said after the updates, as `shipment update --csv` says it before its plan's (update-plan.ts).
 */
function notePrices(run: BatchRun, ids: readonly number[]): void {
  if (ids.length === 0) return;
  const { io, theme } = run.deps;
  // The command reaches the service the run updated (the ids are its), as every command shipctl prints to run does.
  const quote = ["shipctl checkout --quote", ids.length <= 20 ? ids.join(",") : "<their ids>", ...serviceFlags(run.deps.globals)];
  io.alert(`${theme.err.warn("Note:")} the service may clear a shipment's price when it is updated. Price ${ids.length === 1 ? "it" : "them"} again: ${quote.join(" ")}\n`);
}
