// `shipctl shipment update --csv FILE`: every row carries the shipment's id and all its fields (the service replaces
// the whole shipment). Rows are validated first, inline addresses verified once each, then each row is sent as its
// own PATCH. PATCH with the whole body is idempotent, so a row whose answer was lost is simply sent again on a rerun;
// the journal only spares a rerun the rows already updated with this very content. A row edited since (same
// reference, new values) is the change to send, so it is sent again; journals written before the content was
// recorded make every row be sent once more, which is harmless for a PATCH.
import type { Deps } from "../deps.js";
import { ExitCode } from "../errors.js";
import { AddressSet } from "../addresses/address-set.js";
import { columnForPath } from "../csv/columns.js";
import type { BatchRun } from "../batch/batch-run.js";
import { finishRun } from "../batch/finish.js";
import type { Book } from "../ledger/book.js";
import { Notes } from "../csv/value-notes.js";
import { refuseInvalid, reportValidation, verifyDistinct } from "../batch/before-send.js";
import type { ResultWords } from "../batch/results.js";
import type { RowJob } from "../batch/row-sender.js";
import { sendRowPass, withJournal } from "../batch/row-run.js";
import type { CsvOptions } from "../batch/run-options.js";
import { shipmentScanSpec, withDecisions } from "./shipment-spec.js";
import { shipmentContent, type ValidShipmentRow } from "./shipment-row.js";
import { shortHash } from "../ledger/book-lines.js";
import { validatePass } from "../batch/validate-pass.js";

export const UPDATE_WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "updated" };

/** What an update sent: the scan hashes no content for a row keyed by its reference, but an update needs it. */
function updateHash(row: ValidShipmentRow): string {
  return shortHash(shipmentContent(row));
}

export async function runUpdateCsv(deps: Deps, options: CsvOptions): Promise<number> {
  return withJournal(deps, options, "shipment-update", updateBatch);
}

async function updateBatch(run: BatchRun, journal: Book): Promise<number> {
  const { deps, outcomes } = run;
  // A dry run needs the rows' keys only to look them up in the journal.
  const spec = shipmentScanSpec(run.tables, { update: true, keys: !run.options.dryRun || journal.hasRows });
  // Before sending, keys only matter to look rows up in the journal: a first run skips hashing every row twice.
  const firstPass = shipmentScanSpec(run.tables, { update: true, keys: journal.hasRows });
  const notes = new Notes({ perRow: run.options.results !== undefined });
  const addresses = new AddressSet();
  const updatedAs = (row: ValidShipmentRow & { key: string }) => {
    const state = journal.row(row.key);
    return state?.state === "updated" && state.hash === updateHash(row) ? state : undefined;
  };
  let doneEarlier = 0;
  const validation = await validatePass(run.source, firstPass, deps.signal, (row) => {
    notes.add(row.row, row.changes, row.mappings);
    if (updatedAs(row) !== undefined) {
      doneEarlier++;
      return;
    }
    for (const a of row.addresses) addresses.add(a.key, a.address, row.row);
  });
  reportValidation(run, validation, notes, doneEarlier);
  const finish = (extra: { exitCode?: number; unreached?: number; error?: unknown } = {}) =>
    finishRun(run, { words: UPDATE_WORDS, notes, journalPath: journal.path, command: "shipment update", unreached: extra.unreached ?? 0, exitCode: extra.exitCode, error: extra.error, spec });
  if (refuseInvalid(run, validation)) return finish({ exitCode: ExitCode.Usage });

  const decisions = await verifyDistinct(run, journal, addresses);
  const api = await deps.api();
  return sendRowPass<ValidShipmentRow, RowJob>(run, journal, {
    spec,
    validation,
    done: "updated",
    sends: "shipment",
    columnFor: (field) => columnForPath(field.split(".")),
    prepare: (row, base) => {
      const state = updatedAs(row);
      if (state !== undefined) return { outcome: { status: "skipped", ...base, id: state.id } };
      const ready = withDecisions(row, decisions);
      if ("error" in ready) return { outcome: { status: "failed", ...base, error: ready.error, unavailable: ready.unavailable } };
      const id = row.id!;
      const body = { id, ...ready.payload } as Record<string, unknown>;
      return { job: { key: row.key, hash: updateHash(row), row: row.row, ...base, body, send: () => api.updateShipment(id, ready.payload, run.call).then(() => id) } };
    },
    // PATCH is safe to repeat: a lost answer needs no reconciliation, only another run (the row stays "sending").
    settleLost: async (sender) => {
      for (const r of sender.lost) outcomes.update(r.row, { error: "the answer was lost; PATCH is safe to repeat: run the same command again" });
    },
    finish,
  });
}
