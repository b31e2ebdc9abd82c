// `shipctl address update --csv FILE`: every row carries the id of a stored address and all its fields (the service
// replaces the whole address), e.g. an edited `list addresses --format csv`. Rows are validated first, each distinct
// address verified once (unless --no-verify), then each row is sent as its own PATCH. As for `shipment update --csv`,
// PATCH with the whole body is idempotent: the journal only spares a rerun the rows already updated with this very
// content, and a row whose answer was lost is simply sent again on a rerun.
import type { Deps } from "../deps.js";
import { ExitCode } from "../errors.js";
import { AddressSet } from "./address-set.js";
import { addressContent, addressScanSpec, type ValidAddressRow } from "./address-spec.js";
import type { BatchRun } from "../batch/batch-run.js";
import { finishRun } from "../batch/finish.js";
import type { Book } from "../ledger/book.js";
import { shortHash } from "../ledger/book-lines.js";
import { Notes } from "../csv/value-notes.js";
import { decided, refuseInvalid, reportValidation, verifyDistinct } from "../batch/before-send.js";
import type { ResultWords } from "../batch/results.js";
import type { RowJob } from "../batch/row-sender.js";
import { sendRowPass, withJournal } from "../batch/row-run.js";
import type { CsvOptions } from "../batch/run-options.js";
import { validatePass } from "../batch/validate-pass.js";

export const ADDRESS_UPDATE_WORDS: ResultWords = { idKey: "address_id", idHeader: "address id", labelHeader: "name", done: "updated" };

export async function runAddressUpdateCsv(deps: Deps, options: CsvOptions): Promise<number> {
  return withJournal(deps, options, "address-update", updateBatch);
}

async function updateBatch(run: BatchRun, journal: Book): Promise<number> {
  const { deps, outcomes } = run;
  // A dry run needs the rows' keys only to look them up in the journal (read-only, as the run would read it).
  const spec = addressScanSpec(run.tables, { keys: !run.options.dryRun || journal.hasRows, kind: "address-update" });
  // Before sending, keys only matter to look rows up in the journal: a first run skips hashing every row twice.
  const firstPass = addressScanSpec(run.tables, { keys: journal.hasRows, kind: "address-update" });
  const notes = new Notes({ perRow: run.options.results !== undefined });
  const addresses = new AddressSet();
  const updatedAs = (row: ValidAddressRow & { key: string }) => {
    const state = journal.row(row.key);
    return state?.state === "updated" && state.hash === shortHash(addressContent(row)) ? state : undefined;
  };
  let doneEarlier = 0;
  const validation = await validatePass(run.source, firstPass, deps.signal, (row) => {
    notes.add(row.row, row.changes, row.mappings);
    if (updatedAs(row) !== undefined) {
      doneEarlier++;
      return;
    }
    addresses.add(row.addressKey, row.payload, row.row);
  });
  reportValidation(run, validation, notes, doneEarlier);
  const finish = (extra: { exitCode?: number; unreached?: number; error?: unknown } = {}) =>
    finishRun(run, { words: ADDRESS_UPDATE_WORDS, notes, journalPath: journal.path, command: "address update", unreached: extra.unreached ?? 0, exitCode: extra.exitCode, error: extra.error, spec });
  if (refuseInvalid(run, validation)) return finish({ exitCode: ExitCode.Usage });

  const decisions = await verifyDistinct(run, journal, addresses);
  const api = await deps.api();
  return sendRowPass<ValidAddressRow, RowJob>(run, journal, {
    spec,
    validation,
    done: "updated",
    sends: "address",
    columnFor: (field) => field,
    prepare: (row, base) => {
      const state = updatedAs(row);
      if (state !== undefined) return { outcome: { status: "skipped", ...base, id: state.id } };
      const ready = decided(row.addressKey, row.payload, decisions);
      if ("error" in ready) return { outcome: { status: "failed", ...base, error: ready.error, unavailable: ready.unavailable } };
      const id = row.id!;
      const body = { id, ...ready.payload } as Record<string, unknown>;
      return { job: { key: row.key, hash: shortHash(addressContent(row)), row: row.row, ...base, body, send: () => api.updateAddress(id, ready.payload, run.call).then(() => id) } };
    },
    // PATCH is safe to repeat: a lost answer needs no reconciliation, only another run (the row stays "sending").
    settleLost: async (sender) => {
      for (const r of sender.lost) outcomes.update(r.row, { error: "the answer was lost; PATCH is safe to repeat: run the same command again" });
    },
    finish,
  });
}
