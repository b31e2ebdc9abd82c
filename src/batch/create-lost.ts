// Lost answers of `shipment create --csv`, in this run and in earlier ones: read what the service holds, record what
// it proves, send again only what is proven not created.
import type { Journal } from "./journal.js";
import { reconcile, shipmentFields, shipmentListing, type Candidate, type Reconciled, type ShipmentFields } from "./reconcile.js";
import type { CreateSender, LostRequest, ReadyRow } from "./create-sender.js";
import type { BatchRun } from "./context.js";

/** [assume] Wait before reading back after a lost answer, so a request the service is still finishing shows up. */
export const RECONCILE_DELAY_MS = 2000;
/** Rounds of reconcile-then-resend within one run; what is still lost after them is left for a rerun. */
const ROUNDS = 2;

export async function reconcileKeys(
  run: BatchRun,
  journal: Journal,
  candidates: ReadonlyArray<Candidate<ShipmentFields>>,
): Promise<Map<string, Reconciled>> {
  const api = await run.deps.api();
  const found = await reconcile(candidates, shipmentListing(api, run.call), journal.claimedIds());
  const entries: Array<readonly [string, { state: "created"; id: number } | { state: "failed"; error: string }]> = [];
  for (const [key, r] of found) {
    if (r.state === "created") entries.push([key, { state: "created", id: r.id }]);
    // Proven not created: the row may be sent again.
    if (r.state === "not-created") entries.push([key, { state: "failed", error: "answer lost; reconciled: not created" }]);
  }
  await journal.record(entries);
  return found;
}

/** Settles the requests of this run whose answers were lost. */
export async function settleLost(run: BatchRun, journal: Journal, sender: CreateSender, lost: LostRequest[]): Promise<void> {
  const { outcomes } = run;
  let pending = lost;
  for (let round = 0; round < ROUNDS && pending.length > 0 && sender.running; round++) {
    await run.deps.clock.sleep(RECONCILE_DELAY_MS, run.deps.signal).catch(() => undefined);
    if (!sender.running) break;
    const rows = pending.flatMap((l) => l.rows.map((r) => ({ r, l })));
    run.say(`The answer to ${pending.length} request${pending.length === 1 ? "" : "s"} was lost; reading the service's shipments to see which were created...\n`);
    let found: Map<string, Reconciled>;
    try {
      found = await reconcileKeys(
        run,
        journal,
        rows.map(({ r, l }) => ({ key: r.key, row: r.row, attempt: l.attempt, at: l.at, fields: shipmentFields(r.payload) })),
      );
    } catch (e) {
      run.say(`Could not read the shipments back (${(e as Error).message}); those rows stay recorded for the next run.\n`);
      break;
    }
    const resend: ReadyRow[] = [];
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
      for (const r of resend) await sender.offer(r);
      await sender.finish();
      pending = [...sender.lost];
    }
  }
  for (const l of pending) {
    for (const r of l.rows) {
      outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: "the answer was lost; rerun the same command to check and finish" });
    }
  }
}
