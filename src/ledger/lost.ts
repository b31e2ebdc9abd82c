// Requests of this run whose answers were lost: after a short wait, read back what the service holds and record the
// rows found created. Nothing is sent again in the same run: a lost answer means the request reached the service
// (a 5xx, a response timeout, a connection closed after the request was written), and a request still running there
// (a slow insert behind a gateway's 504, a handler that answered 500 after its commit) is not visible 2 s later, so
// "not found" proves nothing yet and a resend would create the row twice. Those rows stay "sending" in the journal,
// are reported "unknown" with the command to run again, and the rerun's read-back settles them. Requests that
// provably never arrived (the connection failed before the request was written) are not "lost": the HTTP layer
// retries them itself, as checkout and `address add` also rely on.
// Used by `shipment create --csv` (requests of ten) and `address add --csv` (one address a request).
import type { BatchRun } from "../batch/batch-run.js";
import type { Journal } from "./journal.js";
import type { Outcome } from "../batch/outcomes.js";
import type { Candidate, Reconciled } from "./reconcile.js";

/** [assume] Wait before reading back after a lost answer, so a request the service is still finishing shows up. */
export const RECONCILE_DELAY_MS = 2000;

export interface LostRow {
  key: string;
  row: number;
  label: string;
  reference?: string;
}

export interface Lost<R extends LostRow> {
  rows: R[];
  attempt: number;
  at: string;
}

export interface Resender<R extends LostRow> {
  readonly running: boolean;
  readonly lost: Array<Lost<R>>;
}

export interface ReconcileFor<R extends LostRow, F> {
  fields(row: R): F;
  /** Reconciles and records the proven states in the journal. */
  reconcile(candidates: ReadonlyArray<Candidate<F>>): Promise<Map<string, Reconciled>>;
  /** "shipments", "addresses": for messages. */
  noun: string;
}

/**
 * Records what a reconciliation proved: ids of created rows, and, for a rerun's read-back of an earlier run's rows,
 * "failed" (sendable again) for rows not found. A read-back within the run that lost the answer records only what it
 * found: its "not found" may be a request still in progress (see the top of this file), so those rows stay "sending".
 */
export async function recordReconciled(journal: Journal, found: Map<string, Reconciled>, inRun = false): Promise<void> {
  const entries: Array<readonly [string, { state: "created"; id: number } | { state: "failed"; error: string }]> = [];
  for (const [key, r] of found) {
    if (r.state === "created") entries.push([key, { state: "created", id: r.id }]);
    if (r.state === "not-created" && !inRun) entries.push([key, { state: "failed", error: "answer lost; reconciled: not created" }]);
  }
  await journal.record(entries);
}

/** What settling needs of a run: a CSV run, or `shipment create` from flags or a JSON file. */
/**
 * What an earlier run already settled for a row or item, before this run sends it: created (skipped now, with its
 * id), or left uncertain by the rerun's read-back (not sent: it may exist). Undefined when the row is to be sent.
 */
export function settledEarlier(
  journal: Journal,
  uncertain: ReadonlyMap<string, string>,
  key: string,
  base: Pick<Outcome, "label" | "reference">,
): Outcome | undefined {
  const state = journal.row(key);
  if (state?.state === "created") return { status: "skipped", ...base, id: state.id };
  const doubt = uncertain.get(key);
  if (doubt !== undefined) return { status: "unknown", ...base, error: doubt };
  return undefined;
}

export type SettleRun = Pick<BatchRun, "deps" | "outcomes" | "say">;

export async function settleLost<R extends LostRow, F>(run: SettleRun, sender: Resender<R>, how: ReconcileFor<R, F>): Promise<void> {
  const { outcomes } = run;
  const pending = [...sender.lost];
  sender.lost.length = 0;
  const rows = pending.flatMap((l) => l.rows.map((r) => ({ r, l })));
  const unknown = (r: R, error: string) => outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error });
  if (rows.length === 0) return;
  if (sender.running) await run.deps.clock.sleep(RECONCILE_DELAY_MS, run.deps.signal).catch(() => undefined);
  if (!sender.running) {
    for (const { r } of rows) unknown(r, LOST);
    return;
  }
  run.say(`The answer to ${pending.length} request${pending.length === 1 ? "" : "s"} was lost; reading the service's ${how.noun} to see what was created...\n`);
  let found: Map<string, Reconciled>;
  try {
    found = await how.reconcile(rows.map(({ r, l }) => ({ key: r.key, row: r.row, attempt: l.attempt, at: l.at, fields: how.fields(r) })));
  } catch (e) {
    run.say(`Could not read the ${how.noun} back (${(e as Error).message}); those rows stay recorded for the next run.\n`);
    for (const { r } of rows) unknown(r, LOST);
    return;
  }
  let notFound = 0;
  for (const { r } of rows) {
    const verdict = found.get(r.key);
    if (verdict?.state === "created") outcomes.set(r.row, { status: "created", label: r.label, reference: r.reference, id: verdict.id });
    else if (verdict?.state === "uncertain") unknown(r, verdict.reason);
    else {
      notFound++;
      unknown(r, NOT_FOUND_YET);
    }
  }
  if (notFound > 0) {
    run.say(
      `${notFound} row${notFound === 1 ? " was" : "s were"} not found on the service yet; not sent again in this run, since ` +
        `${notFound === 1 ? "its request" : "their requests"} may still be in progress there.\n`,
    );
  }
}

const LOST = "the answer was lost; run the same command again to check and finish";
const NOT_FOUND_YET =
  "the answer was lost and the service does not show it yet, but the request may still be in progress there; " +
  "run the same command again (after a minute if it timed out) to check and finish";
