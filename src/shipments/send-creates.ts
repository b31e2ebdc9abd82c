// The steps of `shipment create` after the input is read and checked, whatever it is (CSV rows, or items from flags
// or JSON): what an earlier run left in flight settled by reading the service back, the look for shipments another
// machine created, then each valid shipment decided (done earlier, in doubt, matched, its address refused, or to
// send) and sent ten a request (create-sender.ts) with the ledger around every request, or rehearsed (--dry-run).
import type { Shipment } from "../contract/index.js";
import type { Decision } from "../batch/address-set.js";
import type { BatchRun } from "../batch/batch-run.js";
import type { WouldSendRows } from "../batch/dry-run-report.js";
import type { Outcome } from "../batch/outcomes.js";
import type { Position, ResultWords } from "../batch/results.js";
import type { SendOptions } from "../batch/run-options.js";
import { settleEarlierRuns, settleOwnLost, type KeyedRow } from "../batch/settle-lost.js";
import type { Change } from "../csv/row-types.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { Settlement } from "../ledger/settle.js";
import { createProgress } from "../output/progress.js";
import { markPhase } from "../output/phase-marks.js";
import type { RowPrint } from "./changed-rows.js";
import { startCreateSender } from "./create-sender.js";
import { lookBeforeCreate, recordCreated, type Look } from "./look/look-before-create.js";
import { shipmentFinder } from "./shipment-read-back.js";
import { withDecisions } from "./shipment-spec.js";
import type { InlineAddress } from "./shipment-row.js";
import { updateSays, type ChangedUpdate } from "./update-changed.js";

/** How the results of a create name a row's shipment, for CSV rows and items alike. */
export const CREATE_WORDS: ResultWords = { idKey: "shipment_id", idHeader: "shipment id", labelHeader: "title", done: "created" };

/** What the send steps need of a run: a CSV run (batch-run.ts) or one of items (create-from-items.ts). */
export type CreateRun = Pick<BatchRun, "deps" | "outcomes" | "call" | "say" | "progress"> & { options: SendOptions };

/** A valid shipment of the input, numbered by its row or item, with its ledger key. */
export interface CreateCandidate extends KeyedRow {
  payload: Shipment;
  addresses: readonly InlineAddress[];
  /** The values a CSV row read differently (a dry run shows them). */
  changes?: readonly Change[];
}

/** What becomes of a valid shipment: an outcome without a request, an update of a changed CSV row, or a create. */
export type Decided = { outcome: Outcome } | { update: ChangedUpdate } | { payload: Shipment; print?: RowPrint };

/**
 * Shipments an earlier run left in flight: the service's shipments are read back and matched against what was sent
 * before anything is sent (nothing is resent blindly). A dry run never waits: what is still in flight is unknown.
 */
export async function settleEarlierCreates(run: CreateRun, ledger: InputLedger, position: Position): Promise<Map<string, Settlement>> {
  const { deps, options } = run;
  return settleEarlierRuns(deps, ledger, await shipmentFinder(deps, run.call, ledger), { wait: options.wait && !options.dryRun, noun: { read: "shipments", row: position } });
}

/** The look before sending (shipments/look/); the ledger answers "did this ledger create it?" (never a match). */
export function lookFor(run: CreateRun, ledger: InputLedger, position: Position): Promise<Look | undefined> {
  const own = ledger.claimedIds();
  return lookBeforeCreate(run.deps, { call: run.call, forceNew: run.options.forceNew, dryRun: run.options.dryRun, createdHere: (id) => own.has(id), position, say: run.say });
}

/**
 * A shipment to create: as it will be sent (addresses as verification decided), unless another machine created it or
 * an address of it was refused.
 */
export function sendable(s: CreateCandidate, decisions: Map<string, Decision> | undefined, look: Look | undefined): Decided {
  const ready = withDecisions(s, decisions);
  const base = { label: s.label, reference: s.reference };
  if ("error" in ready) return { outcome: { status: "failed", ...base, error: ready.error, unavailable: ready.unavailable } };
  const matched = look?.match(s.row, ready.payload, base);
  return matched ? { outcome: matched } : ready;
}

export interface CreatePass<C extends CreateCandidate> {
  rows: Iterable<C> | AsyncIterable<C>;
  decide(s: C): Decided;
  /** Rows (or items) of the input, for the progress line. */
  total: number;
  position: Position;
  /** Told before row `row` is decided, and with Infinity after the last one: the input's invalid rows are reported in order. */
  reach?(row: number): void;
}

export interface CreatesSent {
  /** Why the run stopped early (a refused token, no subscription), if it did. */
  stopped: unknown;
  /** Changed CSV rows to send as updates (--update-changed), once every create is settled. */
  updates: ChangedUpdate[];
  /** Updates the progress line. */
  tick(): void;
}

/** Sends every shipment `decide` says to create; the progress line is left shown (the caller ends it). */
export async function sendCreates<C extends CreateCandidate>(run: CreateRun, ledger: InputLedger, pass: CreatePass<C>): Promise<CreatesSent> {
  const { deps, options, outcomes } = run;
  const progress = createProgress(deps.io, { total: pass.total, unit: pass.position === "row" ? "rows" : "items" });
  run.progress = progress;
  const tick = () => progress.update({ done: outcomes.size, created: outcomes.count("created"), failed: outcomes.count("failed") });
  const { sender, lag } = await startCreateSender(deps, { ledger, outcomes, call: run.call, concurrency: options.concurrency, onSettled: tick });
  let offered = false;
  const updates: ChangedUpdate[] = [];
  for await (const s of pass.rows) {
    if (!sender.running) break;
    pass.reach?.(s.row);
    const base = { label: s.label, reference: s.reference };
    const ready = pass.decide(s);
    if ("outcome" in ready) outcomes.set(s.row, ready.outcome);
    else if ("update" in ready) updates.push(ready.update);
    else {
      if (!offered) markPhase("batch:first-request");
      offered = true;
      await sender.offer({ key: s.key, row: s.row, ...base, payload: ready.payload, print: ready.print });
    }
  }
  if (sender.running) pass.reach?.(Infinity);
  await sender.finish();
  markPhase("batch:sent");
  const noun = { read: "shipments", row: pass.position };
  await settleOwnLost(deps, ledger, sender.lost, () => shipmentFinder(deps, run.call, ledger), { outcomes, say: run.say, noun, readBack: sender.stopped === undefined });
  await recordCreated(deps, outcomes.entries());
  await lag.done();
  return { stopped: sender.stopped, updates, tick };
}

/** --dry-run: every shipment decided as `sendCreates` would decide it, nothing sent. */
export async function rehearseCreates<C extends CreateCandidate>(run: Pick<CreateRun, "outcomes">, wouldSend: WouldSendRows, pass: Pick<CreatePass<C>, "rows" | "decide">): Promise<void> {
  const { outcomes } = run;
  for await (const s of pass.rows) {
    const d = pass.decide(s);
    const base = { label: s.label, reference: s.reference };
    const changes = s.changes ?? [];
    if ("outcome" in d) outcomes.set(s.row, d.outcome);
    else if ("update" in d) wouldSend.add(outcomes, "updated", "shipment", { row: s.row, ...base, body: { id: d.update.id, ...d.update.payload }, changes, says: updateSays(d.update) });
    else wouldSend.add(outcomes, "created", "shipment", { row: s.row, ...base, body: d.payload as unknown as Record<string, unknown>, changes });
  }
}

/**
 * The run's end when it stopped early (not authenticated, no subscription...): nothing more can be sent, what was done
 * is in the ledger. The results are written (`finish`, with why), then the error is thrown for its exit code.
 */
export async function endCreates(run: CreateRun, stopped: unknown, finish: (error?: unknown) => number | Promise<number>): Promise<number> {
  if (stopped === undefined || run.deps.signal.aborted) return finish();
  run.deps.io.alert(`Stopped: ${(stopped as Error).message}\n`);
  await finish(stopped);
  throw stopped;
}
