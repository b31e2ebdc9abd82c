// `shipctl shipment create --csv FILE`: validate every row, reconcile what an earlier run left unanswered, verify
// each distinct address once, then send in file order, ten rows a request, with the ledger around every request.
// The pass that sends reads the file again (scan.ts): nothing grows with the rows but what the ledger keeps.
import type { Deps } from "../deps.js";
import { AddressSet } from "../batch/address-set.js";
import { earlyVerdicts, markInvalid, verifyDistinct } from "../batch/before-send.js";
import { firstPass, type Finish } from "../batch/first-pass.js";
import { stopProgress, withBatch, type BatchRun } from "../batch/batch-run.js";
import { openCsvLedger } from "../batch/open-csv-ledger.js";
import { settledEarlier } from "../batch/settle-lost.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { Outcome } from "../batch/outcomes.js";
import type { CsvOptions } from "../batch/run-options.js";
import { shipmentRecords, shipmentScanSpec } from "./shipment-spec.js";
import type { ValidShipmentRow } from "./shipment-row.js";
import { openScan, type ScanSpec } from "../csv/scan.js";
import type { Validation } from "../batch/validate-pass.js";
import { holdsShipmentFields, SHIPMENTS_PER_CREATE, type ShipmentOwn } from "../contract/index.js";
import { markPhase } from "../output/phase-marks.js";
import { ChangedRows, printOf } from "./changed-rows.js";
import { markedLines } from "../csv/results-csv.js";
import { editedDecision, sendUpdates } from "./update-changed.js";
import { CREATE_WORDS, endCreates, lookFor, rehearseCreates, sendable, sendCreates, settleEarlierCreates, type CreatePass, type Decided } from "./send-creates.js";

export async function runCreateCsv(deps: Deps, options: CsvOptions): Promise<number> {
  markPhase("batch:started");
  return withBatch(deps, options, "shipment-create", CREATE_WORDS, async (run) => {
    markPhase("batch:connected");
    // A dry run reads the ledger as the run would, and writes nothing to it.
    const ledger = await openCsvLedger(run, "shipment-create", shipmentRecords({ update: false }));
    try {
      return await createBatch(run, ledger);
    } finally {
      stopProgress(run);
      await ledger.close();
      markPhase("batch:finished");
    }
  });
}

async function createBatch(run: BatchRun, ledger: InputLedger): Promise<number> {
  const { options } = run;
  // A dry run needs the rows' keys only to look them up (a first dry run of a file keeps no map of 100,000 keys).
  const spec = shipmentScanSpec(run.tables, { update: false, keys: true });
  // Each distinct address is sent for verification as soon as the pass finds it (prepare.ts says when that stops).
  const early = earlyVerdicts(run, ledger);
  const addresses = new AddressSet(early?.onNew);
  // Rows edited since their request went out: reported as such, never matched or sent as they are now meanwhile.
  const changed = new Set<string>();
  // Rows edited since they were created (changed-rows.ts): not created again unless --force-new.
  const edited = new ChangedRows(ledger, await markedLines(run.source, CREATE_WORDS.idKey, (key) => ledger.row(key) !== undefined));
  const sendsEdited = (key: string) => ![undefined, "done"].includes(edited.of(key)?.kind) && (options.updateChanged === true || options.forceNew);

  markPhase("batch:opened");
  const { validation, doneEarlier, finish, refused } = await firstPass(run, ledger, {
    scan: spec,
    finish: { words: CREATE_WORDS, command: "shipment create", spec, perRequest: SHIPMENTS_PER_CREATE.max },
    creates: true,
    onValid: (row, done) => {
      const state = ledger.row(row.key);
      edited.see(row.row, row.key, row.payload, row.reference);
      if (state?.state === "in_flight" && state.sent !== undefined && holdsShipmentFields(row.payload, state.sent as ShipmentOwn) !== true) changed.add(row.key);
      // A row already created is only reported; its addresses need no verification.
      if (!done || sendsEdited(row.key)) for (const a of row.addresses) addresses.add(a.key, a.address, row.row);
    },
    // The run will stop before sending: no more addresses for verification either.
    onInvalid: () => {
      if (!options.skipInvalid) early?.hold();
    },
    read: (validation) => {
      markPhase("batch:validated");
      edited.settle(validation.meta.header);
    },
  });
  if (refused !== undefined) return refused;
  // What a row held is kept with its outcome (its print), except for a results or errors file: its rows are the
  // original's, fixed or edited there, and the original's rows must not read as edits of them.
  const placed = ChangedRows.placed(validation.meta.header);

  const settled = await settleEarlierCreates(run, ledger, "row");

  const decisions = await verifyDistinct(run, ledger, addresses, early);
  markPhase("batch:verified");
  // Rows another machine of the organization created already are not sent (shipments/look/). A rerun with every row
  // done, or settled now as found or still in doubt, has nothing to look for.
  const inDoubtOrFound = [...settled.values()].filter((x) => x.state !== "not-applied").length;
  const look = doneEarlier + inDoubtOrFound < validation.valid ? await lookFor(run, ledger, "row") : undefined;

  const decide = (s: ValidRow): Decided => {
    const print = placed ? printOf(s.payload, s.row) : undefined;
    // A row settled from its request in flight says so its own way (withChangedNote).
    const verdict = settled.has(s.key) ? edited.of(s.key) : edited.ofTaken(s.key, s.payload);
    if (verdict !== undefined && (!options.forceNew || verdict.kind === "done")) return editedDecision(s, verdict, { updateChanged: options.updateChanged === true, decisions, print });
    // --force-new: a row edited since it was created is created again, as it is now.
    const done = verdict === undefined ? settledEarlier(ledger, settled, s.key, { label: s.label, reference: s.reference }) : undefined;
    if (done) return { outcome: changed.has(s.key) ? withChangedNote(done) : done };
    const ready = sendable(s, decisions, look);
    return "payload" in ready ? { ...ready, print } : ready;
  };
  const rows = validRows(run, spec);
  if (options.dryRun) {
    markInvalid(run, validation.invalid);
    await rehearseCreates(run, run.wouldSend!, { rows, decide });
    return finish();
  }
  return send(run, ledger, { rows, decide, total: validation.total, position: "row" }, validation, finish);
}

/** A valid row of the file, with its ledger key. */
type ValidRow = ValidShipmentRow & { key: string };

/** The file's valid rows, read again in order (the first pass kept none of them). */
async function* validRows(run: BatchRun, spec: ScanSpec<ValidShipmentRow>): AsyncGenerator<ValidRow> {
  const scan = await openScan(run.source, spec);
  for await (const row of scan.rows) if (row.ok) yield row;
}

async function send(run: BatchRun, ledger: InputLedger, pass: CreatePass<ValidRow>, validation: Validation, finish: Finish): Promise<number> {
  const { deps, outcomes } = run;
  // Invalid rows (sent around with --skip-invalid) are failed outcomes, reported in file order as the rows are reached.
  const invalid = validation.invalid;
  let nextInvalid = 0;
  const reach = (row: number) => {
    for (; nextInvalid < invalid.length && invalid[nextInvalid]!.row < row; nextInvalid++) markInvalid(run, [invalid[nextInvalid]!]);
  };
  const sent = await sendCreates(run, ledger, { ...pass, reach });
  // Rows edited since they were created, with --update-changed: once every create is settled.
  const updatesStopped = sent.stopped === undefined && !deps.signal.aborted ? await sendUpdates(run, ledger, sent.updates) : undefined;
  sent.tick();
  stopProgress(run);
  return endCreates(run, sent.stopped ?? updatesStopped, (error) => finish({ unreached: validation.total - outcomes.size, error }));
}

/** A row edited in the file since its request was sent: the service holds (or may hold) what was sent then. */
function withChangedNote(outcome: Outcome): Outcome {
  const note = "changed in the file since its request was sent: the service holds (or may hold) what was sent then; change a created shipment with `shipctl shipment update`";
  return { ...outcome, error: outcome.error ? `${outcome.error}; ${note}` : note };
}
