// `shipctl shipment create --csv FILE`: validate every row, reconcile what an earlier run left unanswered, verify
// each distinct address once, then send in file order, ten rows a request, with the ledger around every request.
// The pass that sends reads the file again (scan.ts): nothing grows with the rows but what the ledger keeps.
import { ExitCode } from "../errors.js";
import type { Deps } from "../deps.js";
import { AddressSet } from "../batch/address-set.js";
import { earlyVerdicts, markInvalid, refuseInvalid, reportValidation, verifyDistinct, type Ready } from "../batch/before-send.js";
import { findEarlierSends } from "../ledger/copy-guard.js";
import { startProgress, stopProgress, withBatch, type BatchRun } from "../batch/batch-run.js";
import { openCsvLedger } from "../batch/open-csv-ledger.js";
import { startCreateSender } from "./create-sender.js";
import { settledEarlier, settleEarlierRuns, settleOwnLost } from "../batch/settle-lost.js";
import { finishRun } from "../batch/finish.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { Notes } from "../csv/value-notes.js";
import { problemsText, type Outcome } from "../batch/outcomes.js";
import { shipmentFinder } from "./shipment-read-back.js";
import type { ResultWords } from "../batch/results.js";
import type { CsvOptions } from "../batch/run-options.js";
import { shipmentRecords, shipmentScanSpec, withDecisions } from "./shipment-spec.js";
import type { ValidShipmentRow } from "./shipment-row.js";
import type { RowPrint } from "./changed-rows.js";
import { openScan, type ScanSpec } from "../csv/scan.js";
import { validatePass, type Validation } from "../batch/validate-pass.js";
import { settleCreatedInvalid } from "../batch/created-invalid.js";
import { holdsShipmentFields, SHIPMENTS_PER_CREATE, type Shipment, type ShipmentOwn } from "../contract/index.js";
import { markPhase } from "../output/phase-marks.js";
import { lookBeforeCreate, recordCreated, type Look } from "./look/look-before-create.js";
import { ChangedRows, printOf } from "./changed-rows.js";
import { editedDecision, sendUpdates, updateSays, type ChangedUpdate } from "./update-changed.js";

export const CREATE_WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "created" };

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
  const { deps, options } = run;
  const notes = new Notes({ perRow: options.results !== undefined });
  // A first run of a copy of a file already sent must not send its rows again (earlier-ledgers.ts).
  const earlier = findEarlierSends(ledger);
  // A dry run needs the rows' keys only to look them up (a first dry run of a file keeps no map of 100,000 keys).
  const spec = shipmentScanSpec(run.tables, { update: false, keys: true });
  // Each distinct address is sent for verification as soon as the pass finds it (prepare.ts says when that stops).
  const early = earlyVerdicts(run, ledger);
  const addresses = new AddressSet(early?.onNew);
  // Rows edited since their request went out: reported as such, never matched or sent as they are now meanwhile.
  const changed = new Set<string>();
  // Rows edited since they were created (changed-rows.ts): not created again unless --force-new.
  const edited = new ChangedRows(ledger);
  const sendsEdited = (key: string) => edited.of(key) !== undefined && (options.updateChanged === true || options.forceNew);

  let doneEarlier = 0;

  markPhase("batch:opened");
  const validation = await validatePass(
    run.source,
    spec,
    deps.signal,
    (row) => {
      notes.add(row.row, row.changes, row.mappings);
      // The run will stop before sending: no more addresses for verification either.
      earlier.see(row.key);
      const state = ledger.row(row.key);
      edited.see(row.row, row.key, row.payload, row.reference);
      if (state?.state === "created") doneEarlier++;
      if (state?.state === "in_flight" && state.sent !== undefined && holdsShipmentFields(row.payload, state.sent as ShipmentOwn) !== true) changed.add(row.key);
      // A row already created is only reported; its addresses need no verification.
      if (state?.state !== "created" || sendsEdited(row.key)) for (const a of row.addresses) addresses.add(a.key, a.address, row.row);
    },
    () => {
      if (!options.skipInvalid) early?.hold();
    },
  );
  markPhase("batch:validated");
  edited.settle(validation.meta.header);
  // What a row held is kept with its outcome (its print), except for a results or errors file: its rows are the
  // original's, fixed or edited there, and the original's rows must not read as edits of them.
  const placed = ChangedRows.placed(validation.meta.header);
  settleCreatedInvalid(run, ledger, validation);
  reportValidation(run, validation, notes, doneEarlier);
  const finish = (extra: { exitCode?: number; unreached?: number; error?: unknown } = {}) =>
    finishRun(run, { words: CREATE_WORDS, notes, ledgerPath: ledger.path, command: "shipment create", unreached: extra.unreached ?? 0, exitCode: extra.exitCode, error: extra.error, spec, perRequest: SHIPMENTS_PER_CREATE.max });

  if (refuseInvalid(run, validation)) return finish({ exitCode: ExitCode.Usage });
  const refusal = await earlier.refusal(run.source.name, "shipment create", validation.valid);
  if (refusal) throw refusal;

  // A dry run reads the service back as the run would, and never waits: rows still in flight are reported unknown.
  const settled = await settleEarlierRuns(deps, ledger, await shipmentFinder(deps, run.call, ledger), {
    wait: options.wait && !options.dryRun,
    noun: { read: "shipments", row: "row" },
  });

  const decisions = await verifyDistinct(run, ledger, addresses, early);
  markPhase("batch:verified");
  // Rows another machine of the organization created already are not sent (shipments/look/). A rerun with every row
  // done, or settled now as found or still in doubt, has nothing to look for.
  const inDoubtOrFound = [...settled.values()].filter((x) => x.state !== "not-applied").length;
  const look = doneEarlier + inDoubtOrFound < validation.valid ? await lookFor(run, ledger) : undefined;

  const decide = (s: ValidRow): Decided => {
    const base = { label: s.label, reference: s.reference };
    const print = placed ? printOf(s.payload, s.row) : undefined;
    const verdict = edited.of(s.key);
    if (verdict !== undefined && !options.forceNew) return editedDecision(s, verdict, { updateChanged: options.updateChanged === true, decisions, print });
    // --force-new: a row edited since it was created is created again, as it is now.
    const done = verdict === undefined ? settledEarlier(ledger, settled, s.key, base) : undefined;
    if (done) return { outcome: changed.has(s.key) ? withChangedNote(done) : done };
    const ready = withDecisions(s, decisions);
    const matched = "payload" in ready ? look?.match(s.row, ready.payload, base) : undefined;
    return matched ? { outcome: matched } : "payload" in ready ? { ...ready, print } : ready;
  };
  if (options.dryRun) return rehearse(run, spec, decide, validation, finish);
  return send(run, ledger, spec, decide, validation, finish);
}

/** A valid row of the file, with its ledger key. */
type ValidRow = ValidShipmentRow & { key: string };

/** What becomes of a valid row: an outcome without a request, an update of a changed row, or a create. */
type Decided = { outcome: Outcome } | { update: ChangedUpdate } | (Ready<Shipment> & { print?: RowPrint });

/** The file's valid rows, read again in order (the first pass kept none of them). */
async function* validRows(run: BatchRun, spec: ScanSpec<ValidShipmentRow>): AsyncGenerator<ValidRow> {
  const scan = await openScan(run.source, spec);
  try {
    for await (const row of scan.rows) if (row.ok) yield row;
  } finally {
    await scan.close();
  }
}

/** --dry-run: every row decided as `send` would decide it, nothing sent. */
async function rehearse(
  run: BatchRun,
  spec: ScanSpec<ValidShipmentRow>,
  decide: (s: ValidRow) => Decided,
  validation: Validation,
  finish: () => Promise<number>,
): Promise<number> {
  markInvalid(run, validation.invalid);
  for await (const s of validRows(run, spec)) {
    const d = decide(s);
    const base = { label: s.label, reference: s.reference };
    if ("outcome" in d) run.outcomes.set(s.row, d.outcome);
    else if ("update" in d) run.wouldSend!.add(run.outcomes, "updated", "shipment", { row: s.row, ...base, body: { id: d.update.id, ...d.update.payload }, changes: s.changes, says: updateSays(d.update) });
    else if ("error" in d) run.outcomes.set(s.row, { status: "failed", ...base, error: d.error, unavailable: d.unavailable });
    else run.wouldSend!.add(run.outcomes, "created", "shipment", { row: s.row, ...base, body: d.payload as unknown as Record<string, unknown>, changes: s.changes });
  }
  return finish();
}

async function send(
  run: BatchRun,
  ledger: InputLedger,
  spec: ScanSpec<ValidShipmentRow>,
  decide: (s: ValidRow) => Decided,
  validation: Validation,
  finish: (extra?: { exitCode?: number; unreached?: number; error?: unknown }) => Promise<number>,
): Promise<number> {
  const { deps, options, outcomes } = run;
  const progress = startProgress(run, validation.total);
  const tick = () => progress.update({ done: outcomes.size, created: outcomes.count("created"), failed: outcomes.count("failed") });
  const { sender, lag } = await startCreateSender(deps, { ledger: ledger, outcomes, call: run.call, concurrency: options.concurrency, onSettled: tick });
  // Invalid rows (sent around with --skip-invalid) are failed outcomes, reported in file order as the rows are reached.
  const invalid = validation.invalid;
  let nextInvalid = 0;
  const reportInvalidBefore = (row: number) => {
    for (; nextInvalid < invalid.length && invalid[nextInvalid]!.row < row; nextInvalid++) {
      const r = invalid[nextInvalid]!;
      outcomes.set(r.row, { status: "failed", label: r.label, reference: r.reference, error: problemsText(r.problems), problems: r.problems, invalid: true });
    }
  };
  let offered = false;
  const updates: ChangedUpdate[] = [];
  for await (const s of validRows(run, spec)) {
    if (!sender.running) break;
    reportInvalidBefore(s.row);
    const base = { label: s.label, reference: s.reference };
    const ready = decide(s);
    if ("outcome" in ready) {
      outcomes.set(s.row, ready.outcome);
      continue;
    }
    if ("update" in ready) {
      updates.push(ready.update);
      continue;
    }
    if ("error" in ready) {
      outcomes.set(s.row, { status: "failed", ...base, error: ready.error, unavailable: ready.unavailable });
      continue;
    }
    if (!offered) markPhase("batch:first-request");
    offered = true;
    await sender.offer({ key: s.key, row: s.row, ...base, payload: ready.payload, print: ready.print });
  }
  if (sender.running) reportInvalidBefore(Infinity);
  await sender.finish();
  markPhase("batch:sent");
  await settleOwnLost(deps, ledger, sender.lost.flatMap((l) => l.rows), () => shipmentFinder(deps, run.call, ledger), { outcomes, say: run.say, noun: { read: "shipments", row: "row" }, readBack: sender.stopped === undefined });
  await recordCreated(deps, outcomes.entries());
  await lag.done();
  // Rows edited since they were created, with --update-changed: once every create is settled.
  const updatesStopped = sender.stopped === undefined && !deps.signal.aborted ? await sendUpdates(run, ledger, updates) : undefined;
  tick();
  stopProgress(run);
  const stopped = sender.stopped ?? updatesStopped;
  if (stopped !== undefined && !deps.signal.aborted) {
    // Not authenticated, no subscription...: nothing more can be sent. What was done is in the ledger.
    deps.io.alert(`Stopped: ${(stopped as Error).message}\n`);
    await finish({ unreached: validation.total - outcomes.size, error: stopped });
    throw stopped;
  }
  return finish({ unreached: validation.total - outcomes.size });
}

/** The look before sending; the ledger answers "did this ledger create it?" (a shipment it created is never a match). */
function lookFor(run: BatchRun, ledger: InputLedger): Promise<Look | undefined> {
  const own = ledger.claimedIds();
  return lookBeforeCreate(run.deps, { call: run.call, forceNew: run.options.forceNew, dryRun: run.options.dryRun, createdHere: (id) => own.has(id), position: "row", say: run.say });
}

/** A row edited in the file since its request was sent: the service holds (or may hold) what was sent then. */
function withChangedNote(outcome: Outcome): Outcome {
  const note = "changed in the file since its request was sent: the service holds (or may hold) what was sent then; change a created shipment with `shipctl shipment update`";
  return { ...outcome, error: outcome.error ? `${outcome.error}; ${note}` : note };
}
