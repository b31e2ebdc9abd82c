// `shipctl shipment create --csv FILE`: validate every row, reconcile what an earlier run left unanswered, verify
// each distinct address once, then send in file order, ten rows a request, with the journal around every request.
// The first pass keeps each valid row as built (spill.ts), so the pass that sends neither parses nor checks again.
import { ExitCode } from "../errors.js";
import type { Deps } from "../deps.js";
import { AddressSet, type Decision } from "../addresses/address-set.js";
import { earlyVerdicts, refuseInvalid, reportValidation, verifyDistinct } from "../batch/before-send.js";
import { findEarlierSends } from "../ledger/copy-guard.js";
import { startProgress, stopProgress, withBatch, type BatchRun } from "../batch/batch-run.js";
import { openJournal } from "../batch/open-csv-journal.js";
import { CreateSender } from "./create-sender.js";
import { recordReconciled, settledEarlier, settleLost } from "../ledger/lost.js";
import { printDryRun, type DryRunItem } from "../batch/dry-run-pass.js";
import { finishRun } from "../batch/finish.js";
import type { Journal } from "../ledger/journal.js";
import { Notes } from "../csv/value-notes.js";
import { problemsText } from "../batch/outcomes.js";
import { reconcile, shipmentFields, shipmentListing, type Candidate, type Reconciled, type ShipmentFields } from "../ledger/reconcile.js";
import type { ResultWords } from "../batch/results.js";
import { csvOptions, type CsvFlags } from "../batch/run-options.js";
import { shipmentScanSpec } from "./shipment-spec.js";
import { createSpill, type Spill } from "../csv/spill.js";
import { spilledReady, spilledShipment, type SpilledShipment } from "./spilled-shipment.js";
import { validatePass, type Validation } from "../batch/validate-pass.js";
import { SHIPMENTS_PER_CREATE, type Shipment } from "../contract/index.js";
import { markPhase } from "../batch/batch-phases.js";

export const CREATE_WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "created" };

export async function runCreateCsv(deps: Deps, flags: CsvFlags): Promise<number> {
  markPhase("started");
  const options = csvOptions(flags);
  return withBatch(deps, options, async (run) => {
    markPhase("connected");
    // A dry run writes nothing: no journal.
    const journal = options.dryRun ? undefined : await openJournal(run, "shipment-create");
    try {
      const spill = await createSpill<SpilledShipment>();
      try {
        return await createBatch(run, journal, spill);
      } finally {
        await spill.dispose();
      }
    } finally {
      stopProgress(run);
      await journal?.close();
      markPhase("finished");
    }
  });
}

async function createBatch(run: BatchRun, journal: Journal | undefined, spill: Spill<SpilledShipment>): Promise<number> {
  const { deps, options } = run;
  const spec = shipmentScanSpec(run.tables, { update: false, keys: !options.dryRun });
  const notes = new Notes();
  // A first run of a copy of a file already sent must not send its rows again (earlier-journals.ts).
  const earlier = journal && !options.forceNew ? await findEarlierSends(run, "shipment-create", journal) : undefined;
  // Each distinct address is sent for verification as soon as the pass finds it (prepare.ts says when that stops).
  const early = earlyVerdicts(run, journal);
  const addresses = new AddressSet(early?.onNew);
  const lostEarlier: Array<Candidate<ShipmentFields>> = [];

  markPhase("opened");
  const validation = await validatePass(
    run.source,
    spec,
    deps.signal,
    (row) => {
      notes.add(row.row, row.changes, row.mappings);
      // The run will stop before sending: no more addresses for verification either.
      if (earlier?.see(row.key)) early?.hold();
      const state = options.dryRun ? undefined : journal?.row(row.key);
      if (state?.state === "sending") lostEarlier.push({ key: row.key, row: row.row, attempt: state.attempt, at: state.at, fields: shipmentFields(row.payload) });
      // A row already created is kept only to be reported; its addresses need no verification.
      spill.add(spilledShipment(row, addresses, { changes: options.dryRun, verify: state?.state !== "created" }));
    },
    () => {
      if (!options.skipInvalid) early?.hold();
    },
  );
  spill.finish();
  markPhase("validated");
  reportValidation(run, validation, notes);
  const finish = (extra: { exitCode?: number; unreached?: number } = {}) =>
    finishRun(run, { words: CREATE_WORDS, notes, journalPath: journal?.path, command: "shipment create", unreached: extra.unreached ?? 0, exitCode: extra.exitCode });

  if (refuseInvalid(run, validation)) return finish({ exitCode: ExitCode.Usage });
  const refusal = earlier?.refusal(run, "shipment create", validation.valid);
  if (refusal) throw refusal;

  const uncertain = new Map<string, string>();
  if (lostEarlier.length > 0 && journal && !options.dryRun) {
    deps.io.err(`${lostEarlier.length} row${lostEarlier.length === 1 ? " was" : "s were"} being sent when an earlier run stopped; reading the service's shipments to see which were created...\n`);
    const found = await reconcileShipments(run, journal, lostEarlier);
    let created = 0;
    let again = 0;
    for (const [key, r] of found) {
      if (r.state === "uncertain") uncertain.set(key, r.reason);
      else if (r.state === "created") created++;
      else again++;
    }
    deps.io.err(`  ${created} found created, ${again} proven not created (to be sent), ${uncertain.size} uncertain (not sent).\n`);
  }

  const decisions = await verifyDistinct(run, journal, addresses, early);
  markPhase("verified");

  if (options.dryRun) return printDryRun(run, validation, notes, "shipment", dryRunItems(spill, addresses, decisions), SHIPMENTS_PER_CREATE.max);
  return send(run, journal!, spill, addresses, decisions, uncertain, validation, finish);
}

async function* dryRunItems(spill: Spill<SpilledShipment>, addresses: AddressSet, decisions: Map<string, Decision> | undefined): AsyncGenerator<Iterable<DryRunItem<Shipment>>> {
  function* items(batch: Iterable<SpilledShipment>): Generator<DryRunItem<Shipment>> {
    for (const s of batch) yield { row: s.row, label: s.label, reference: s.reference, changes: s.changes ?? [], ready: spilledReady(s, addresses, decisions) };
  }
  for await (const batch of spill.batches()) yield items(batch);
}

async function reconcileShipments(run: BatchRun, journal: Journal, candidates: ReadonlyArray<Candidate<ShipmentFields>>, inRun = false): Promise<Map<string, Reconciled>> {
  const api = await run.deps.api();
  const found = await reconcile(candidates, shipmentListing(api, run.call), journal.claimedIds());
  await recordReconciled(journal, found, inRun);
  return found;
}

async function send(
  run: BatchRun,
  journal: Journal,
  spill: Spill<SpilledShipment>,
  addresses: AddressSet,
  decisions: Map<string, Decision> | undefined,
  uncertain: Map<string, string>,
  validation: Validation,
  finish: (extra?: { exitCode?: number; unreached?: number }) => Promise<number>,
): Promise<number> {
  const { deps, options, outcomes } = run;
  const api = await deps.api();
  const progress = startProgress(run, validation.total);
  const tick = () => progress.update({ done: outcomes.size, created: outcomes.count("created"), failed: outcomes.count("failed") });
  const sender = new CreateSender({ api, journal, outcomes, clock: deps.clock, call: run.call, signal: deps.signal, concurrency: options.concurrency, onSettled: tick });
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
  rows: for await (const batch of spill.batches()) {
    for (const s of batch) {
      if (!sender.running) break rows;
      reportInvalidBefore(s.row);
      const base = { label: s.label, reference: s.reference };
      const earlier = settledEarlier(journal, uncertain, s.key, base);
      if (earlier) {
        outcomes.set(s.row, earlier);
        continue;
      }
      const ready = spilledReady(s, addresses, decisions);
      if ("error" in ready) {
        outcomes.set(s.row, { status: "failed", ...base, error: ready.error, unavailable: ready.unavailable });
        continue;
      }
      if (!offered) markPhase("first-request");
      offered = true;
      await sender.offer({ key: s.key, row: s.row, ...base, payload: ready.payload });
    }
  }
  if (sender.running) reportInvalidBefore(Infinity);
  await sender.finish();
  markPhase("sent");
  if (sender.lost.length > 0) {
    await settleLost(run, sender, { noun: "shipments", fields: (r) => shipmentFields(r.payload), reconcile: (c) => reconcileShipments(run, journal, c, true) });
  }
  tick();
  stopProgress(run);
  const stopped = sender.stopped;
  if (stopped !== undefined && !deps.signal.aborted) {
    // Not authenticated, no subscription...: nothing more can be sent. What was done is in the journal.
    deps.io.err(`Stopped: ${(stopped as Error).message}\n`);
    await finish({ unreached: validation.total - outcomes.size });
    throw stopped;
  }
  return finish({ unreached: validation.total - outcomes.size });
}
