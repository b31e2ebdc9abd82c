// Requests of this run whose answers were lost: after a short wait, read back what the service holds, record what
// that proves, send again only the rows proven not created, and leave the rest "unknown" for a rerun to settle.
// Used by `shipment create --csv` (requests of ten) and `address add --csv` (one address a request).
import type { BatchRun } from "./context.js";
import type { Journal } from "./journal.js";
import type { Candidate, Reconciled } from "./reconcile.js";

/** [assume] Wait before reading back after a lost answer, so a request the service is still finishing shows up. */
export const RECONCILE_DELAY_MS = 2000;
/** Rounds of reconcile-then-resend within one run; what is still lost after them is left for a rerun. */
const ROUNDS = 2;

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
  offer(row: R): Promise<void>;
  finish(): Promise<void>;
}

export interface ReconcileFor<R extends LostRow, F> {
  fields(row: R): F;
  /** Reconciles and records the proven states in the journal. */
  reconcile(candidates: ReadonlyArray<Candidate<F>>): Promise<Map<string, Reconciled>>;
  /** "shipments", "addresses": for messages. */
  noun: string;
}

/** Records what a reconciliation proved: ids of created rows; "failed" (sendable again) for rows proven not created. */
export async function recordReconciled(journal: Journal, found: Map<string, Reconciled>): Promise<void> {
  const entries: Array<readonly [string, { state: "created"; id: number } | { state: "failed"; error: string }]> = [];
  for (const [key, r] of found) {
    if (r.state === "created") entries.push([key, { state: "created", id: r.id }]);
    if (r.state === "not-created") entries.push([key, { state: "failed", error: "answer lost; reconciled: not created" }]);
  }
  await journal.record(entries);
}

/** What settling needs of a run: a CSV run, or `shipment create` from flags or a JSON file. */
export type SettleRun = Pick<BatchRun, "deps" | "outcomes" | "say">;

export async function settleLost<R extends LostRow, F>(run: SettleRun, sender: Resender<R>, how: ReconcileFor<R, F>): Promise<void> {
  const { outcomes } = run;
  let pending = [...sender.lost];
  for (let round = 0; round < ROUNDS && pending.length > 0 && sender.running; round++) {
    await run.deps.clock.sleep(RECONCILE_DELAY_MS, run.deps.signal).catch(() => undefined);
    if (!sender.running) break;
    const rows = pending.flatMap((l) => l.rows.map((r) => ({ r, l })));
    run.say(`The answer to ${pending.length} request${pending.length === 1 ? "" : "s"} was lost; reading the service's ${how.noun} to see what was created...\n`);
    let found: Map<string, Reconciled>;
    try {
      found = await how.reconcile(rows.map(({ r, l }) => ({ key: r.key, row: r.row, attempt: l.attempt, at: l.at, fields: how.fields(r) })));
    } catch (e) {
      run.say(`Could not read the ${how.noun} back (${(e as Error).message}); those rows stay recorded for the next run.\n`);
      break;
    }
    const resend: R[] = [];
    for (const { r } of rows) {
      const verdict = found.get(r.key);
      if (verdict?.state === "created") outcomes.set(r.row, { status: "created", label: r.label, reference: r.reference, id: verdict.id });
      else if (verdict?.state === "not-created") resend.push(r);
      else if (verdict?.state === "uncertain") outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: verdict.reason });
    }
    // These requests are settled now; whatever the resends lose is collected afresh.
    sender.lost.length = 0;
    pending = [];
    if (resend.length > 0) {
      run.say(`${resend.length} row${resend.length === 1 ? " was" : "s were"} proven not created; sending ${resend.length === 1 ? "it" : "them"} again.\n`);
      for (const r of resend.sort((a, b) => a.row - b.row)) await sender.offer(r);
      await sender.finish();
      pending = [...sender.lost];
    }
  }
  for (const l of pending) {
    for (const r of l.rows) {
      outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: "the answer was lost; run the same command again to check and finish" });
    }
  }
}
