// `shipctl shipment create --csv FILE`: validate every row, reconcile what an earlier run left unanswered, verify
// each distinct address once, then send in file order, ten rows a request, with the journal around every request.
import { ExitCode, UsageError } from "../errors.js";
import type { Deps } from "../deps.js";
import { AddressSet, verifyAddresses, type Decision } from "./addresses.js";
import { openJournal, startProgress, stopProgress, withBatch, type BatchRun } from "./context.js";
import { CreateSender } from "./create-sender.js";
import { reconcileKeys, settleLost } from "./create-lost.js";
import { dryRunPrinter } from "./dry-run.js";
import { finishRun } from "./finish.js";
import type { Journal } from "./journal.js";
import { Notes } from "./notes.js";
import { problemsText } from "./outcomes.js";
import { renderProblems, unknownColumnsWarning, validCountLine } from "./problems-report.js";
import { shipmentFields, type Candidate, type ShipmentFields } from "./reconcile.js";
import type { ResultWords } from "./results.js";
import { csvOptions, type CsvFlags } from "./run-options.js";
import { openScan } from "./scan.js";
import { shipmentScanSpec } from "./shipment-spec.js";
import type { ValidShipmentRow } from "./shipment-row.js";
import { validatePass, type Validation } from "./validate-pass.js";
import type { Shipment } from "../contract/index.js";

export const CREATE_WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "created" };

export async function runCreateCsv(deps: Deps, flags: CsvFlags): Promise<number> {
  const options = csvOptions(flags);
  return withBatch(deps, options, async (run) => {
    // A dry run without verification touches nothing; otherwise the journal holds verdicts, intents and ids.
    const journal = options.dryRun && !options.verify ? undefined : await openJournal(run, "shipment-create");
    try {
      return await createBatch(run, journal);
    } finally {
      stopProgress(run);
      await journal?.close();
    }
  });
}

async function createBatch(run: BatchRun, journal: Journal | undefined): Promise<number> {
  const { deps, options, outcomes } = run;
  const theme = deps.theme.err;
  const spec = shipmentScanSpec(run.tables, { update: false, keys: !options.dryRun });
  const notes = new Notes();
  const addresses = new AddressSet();
  const lostEarlier: Array<Candidate<ShipmentFields>> = [];

  const validation = await validatePass(run.source, spec, deps.signal, (row) => {
    notes.add(row.row, row.changes, row.mappings);
    const state = options.dryRun ? undefined : journal?.row(row.key);
    if (state?.state === "created") return;
    if (state?.state === "sending") lostEarlier.push({ key: row.key, row: row.row, attempt: state.attempt, at: state.at, fields: shipmentFields(row.payload) });
    for (const a of row.addresses) addresses.add(a.key, a.address, row.row);
  });
  reportValidation(run, validation, notes);
  const finish = (extra: { exitCode?: number; unreached?: number } = {}) =>
    finishRun(run, { words: CREATE_WORDS, notes, journalPath: journal?.path, command: "shipment create", unreached: extra.unreached ?? 0, exitCode: extra.exitCode });

  if (validation.invalid.length > 0 && !options.skipInvalid) {
    for (const r of validation.invalid) outcomes.set(r.row, { status: "failed", label: r.label, reference: r.reference, error: problemsText(r.problems), problems: r.problems });
    deps.io.err(`Nothing was sent. Fix the rows above and run again, or pass --skip-invalid to send only the valid rows.\n`);
    return finish({ exitCode: ExitCode.Usage });
  }

  const uncertain = new Map<string, string>();
  if (lostEarlier.length > 0 && journal && !options.dryRun) {
    deps.io.err(`${lostEarlier.length} row${lostEarlier.length === 1 ? " was" : "s were"} being sent when an earlier run stopped; reading the service's shipments to see which were created...\n`);
    const found = await reconcileKeys(run, journal, lostEarlier);
    let created = 0;
    let again = 0;
    for (const [key, r] of found) {
      if (r.state === "uncertain") uncertain.set(key, r.reason);
      else if (r.state === "created") created++;
      else again++;
    }
    deps.io.err(`  ${created} found created, ${again} proven not created (to be sent), ${uncertain.size} uncertain (not sent).\n`);
  }

  let decisions: Map<string, Decision> | undefined;
  if (options.verify && addresses.size > 0) {
    const api = await deps.api();
    deps.io.err(`Verifying ${addresses.size} distinct address${addresses.size === 1 ? "" : "es"}...\n`);
    decisions = await verifyAddresses(addresses, {
      api,
      journal,
      concurrency: options.concurrency,
      call: run.call,
      acceptRecommended: options.acceptRecommended,
      prompter: deps.canPrompt() ? deps.prompter : undefined,
      theme,
      err: (t) => deps.io.err(t),
    });
  }

  if (options.dryRun) return dryRun(run, spec, decisions, validation, notes);
  return send(run, journal!, spec, decisions, uncertain, validation, finish);
}

function reportValidation(run: BatchRun, validation: Validation, notes: Notes): void {
  const { deps, source } = run;
  const theme = deps.theme.err;
  deps.debug(`${source.name}: ${validation.meta.encoding}, delimiter ${JSON.stringify(validation.meta.delimiter)}, ${validation.total} rows`);
  if (validation.total === 0) throw new UsageError(`${source.name} has a header row but no rows to send`);
  deps.io.err(unknownColumnsWarning(source.name, validation.meta.unknown, theme));
  deps.io.err(renderProblems(source.name, validation.invalid, theme));
  deps.io.err(`${validCountLine(validation.valid, validation.total)}\n`);
  if (!notes.empty) deps.io.err(notes.render(`${run.tables.source} (${run.connection.profile})`));
}

type Ready = { payload: Shipment } | { error: string; unavailable?: boolean };

/** The payload as it will be sent: inline addresses replaced by their verified (or accepted revised) form. */
function withDecisions(row: ValidShipmentRow, decisions: Map<string, Decision> | undefined): Ready {
  if (!decisions) return { payload: row.payload };
  const payload = { ...row.payload };
  for (const a of row.addresses) {
    const d = decisions.get(a.key);
    if (!d) continue;
    if ("fail" in d) return { error: `${a.side} address: ${d.fail}`, unavailable: d.unavailable };
    payload[`${a.side}_address`] = d.use;
  }
  return { payload };
}

async function dryRun(run: BatchRun, spec: ReturnType<typeof shipmentScanSpec>, decisions: Map<string, Decision> | undefined, validation: Validation, notes: Notes): Promise<number> {
  const { deps, outcomes } = run;
  const printer = dryRunPrinter(deps.io, deps.globals.json, "shipment");
  const scan = await openScan(run.source, spec);
  let wouldSend = 0;
  let blocked = 0;
  let unavailable = false;
  for await (const row of scan.rows) {
    if (!row.ok) continue;
    const ready = withDecisions(row, decisions);
    if ("error" in ready) {
      blocked++;
      unavailable ||= ready.unavailable === true;
      outcomes.set(row.row, { status: "failed", label: row.label, reference: row.reference, error: ready.error });
      printer.row({ row: row.row, reference: row.reference, body: row.payload, changes: row.changes, skip: ready.error });
      continue;
    }
    wouldSend++;
    printer.row({ row: row.row, reference: row.reference, body: ready.payload, changes: row.changes });
  }
  const requests = Math.ceil(wouldSend / 10);
  printer.end({ counts: { rows: validation.total, invalid: validation.invalid.length, would_send: wouldSend, blocked, requests }, ...notes.toJSON() });
  deps.io.err(`Dry run: ${wouldSend} row${wouldSend === 1 ? "" : "s"} would be sent in ${requests} request${requests === 1 ? "" : "s"}${blocked > 0 ? `; ${blocked} would fail their address check` : ""}. Nothing was sent.\n`);
  if (blocked + validation.invalid.length === 0) return ExitCode.Ok;
  return unavailable ? ExitCode.Unavailable : ExitCode.Usage;
}

async function send(
  run: BatchRun,
  journal: Journal,
  spec: ReturnType<typeof shipmentScanSpec>,
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
  const scan = await openScan(run.source, spec);
  for await (const row of scan.rows) {
    if (!sender.running) break;
    if (!row.ok) {
      outcomes.set(row.row, { status: "failed", label: row.label, reference: row.reference, error: problemsText(row.problems), problems: row.problems });
      continue;
    }
    const state = journal.row(row.key);
    if (state?.state === "created") {
      outcomes.set(row.row, { status: "skipped", label: row.label, reference: row.reference, id: state.id });
      continue;
    }
    const doubt = uncertain.get(row.key);
    if (doubt !== undefined) {
      outcomes.set(row.row, { status: "unknown", label: row.label, reference: row.reference, error: doubt });
      continue;
    }
    const ready = withDecisions(row, decisions);
    if ("error" in ready) {
      outcomes.set(row.row, { status: "failed", label: row.label, reference: row.reference, error: ready.error, unavailable: ready.unavailable });
      continue;
    }
    await sender.offer({ key: row.key, row: row.row, label: row.label, reference: row.reference, payload: ready.payload });
  }
  scan.close();
  await sender.finish();
  if (sender.lost.length > 0) await settleLost(run, journal, sender, [...sender.lost]);
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
