// What a run makes of writes in flight, its own and those an earlier run left:
// - Before sending, every write an earlier run left in flight is settled (settle.ts): found -> done, reported with its
//   id; past its settle time and not found -> not applied, sent now; still in flight -> waited for (a countdown) unless
//   --no-wait, and then reported unknown with the time after which a rerun settles it.
// - A request of this run whose answer is lost is read back after a short wait, never resent in the same run: found
//   -> created; not found yet -> unknown, since the service may still be applying it. The rerun settles it. One the
//   service itself answered (InputLedger.markAnswered) is read back once its short settle time has passed: not found -> failed.
import type { Deps } from "../deps.js";
import { formatSettleTime } from "../output/time-format.js";
import type { Outcome, Outcomes } from "./outcomes.js";
import type { RowBase } from "../csv/row-types.js";
import type { InputLedger, InFlight } from "../ledger/input-ledger.js";
import { createdFrom } from "../ledger/entry.js";
import { settleLedger } from "../ledger/settle-ledger.js";
import type { Finder, Settlement } from "../ledger/settle.js";

/** [assume] Wait before reading back a lost answer in the same run, so a request the service finishes quickly shows. */
export const RECONCILE_DELAY_MS = 2000;

/** A row of a write with its identity in the ledger: what the sender sends and a lost answer is settled for. */
export interface KeyedRow extends RowBase {
  key: string;
}

type SettleDeps = Pick<Deps, "clock" | "signal" | "io">;


/** Why a row is not sent while its earlier request is in flight, with when a rerun settles it. */
export function inFlightText(settleAt: Date): string {
  return `its request was sent and its answer never came; the service may still be applying it until ${formatSettleTime(settleAt)}: not sent again. Run the same command again after then to settle it`;
}

/**
 * Settles what earlier runs left in flight before this run sends anything. Returns each settlement; the ledger records
 * what they proved. `noun` names the rows in messages ("rows", "items", "addresses").
 */
export async function settleEarlierRuns(deps: SettleDeps, ledger: InputLedger, finder: Finder, o: { wait: boolean; noun: { read: string; row: string } }): Promise<Map<string, Settlement>> {
  const count = ledger.inFlight().size;
  if (count === 0) return new Map();
  const rows = `${count} ${o.noun.row}${count === 1 ? " was" : "s were"}`;
  deps.io.err(`${rows} in flight when an earlier run stopped; reading the service's ${o.noun.read} to settle ${count === 1 ? "it" : "them"}...\n`);
  const settled = await settleLedger(ledger, finder, deps, { wait: o.wait, noun: o.noun.row, done: (id, key) => createdFrom(ledger.row(key), id!) });
  const n = (state: Settlement["state"]) => [...settled.values()].filter((s) => s.state === state).length;
  deps.io.err(`  ${n("applied")} found created, ${n("not-applied")} proven not created (to be sent), ${n("in-flight") + n("uncertain")} still unknown (not sent).\n`);
  return settled;
}

/**
 * What an earlier run settled for a row before this run sends it: created (skipped now, with its id), or still in
 * flight or uncertain (not sent: it may exist). Undefined when the row is to be sent.
 */
export function settledEarlier(ledger: InputLedger, settled: ReadonlyMap<string, Settlement>, key: string, base: Pick<Outcome, "label" | "reference">): Outcome | undefined {
  const state = ledger.row(key);
  if (state?.state === "created") return { status: "skipped", ...base, id: state.id };
  const s = settled.get(key);
  if (s?.state === "uncertain") return { status: "unknown", ...base, error: s.reason };
  if (s?.state === "in-flight") return { status: "unknown", ...base, error: inFlightText(s.settleAt) };
  // Still in flight without a settlement: its rows could not be read back in this run.
  if (state?.state === "in_flight") return { status: "unknown", ...base, error: inFlightText(new Date(state.settle_at)) };
  return undefined;
}

/** Reads back this run's requests whose answers were lost (after RECONCILE_DELAY_MS), recording what it finds. */
export async function settleOwnLost(
  deps: SettleDeps,
  ledger: InputLedger,
  rows: readonly KeyedRow[],
  finder: () => Promise<Finder>,
  o: { outcomes: Outcomes; say: (text: string) => void; noun: { read: string; row: string }; readBack: boolean },
): Promise<void> {
  if (rows.length === 0) return;
  const unknown = (r: KeyedRow) => {
    const state = ledger.row(r.key);
    const error = state?.state === "in_flight" ? inFlightText(new Date(state.settle_at)) : "the answer was lost; run the same command again to settle it";
    o.outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error });
  };
  // A run that is stopping (Ctrl-C, or a failure every request would meet) reads nothing more: the rerun settles these.
  const answered = answerStatuses(ledger, rows);
  const stopped = !o.readBack || (await deps.clock.sleep(readBackDelay(ledger, answered, deps.clock.now()), deps.signal).then(() => false, () => true));
  if (stopped) return rows.forEach(unknown);
  const requests = new Set(rows.map((r) => (ledger.row(r.key) as { attempt?: number } | undefined)?.attempt)).size;
  o.say(`The answer to ${requests} request${requests === 1 ? "" : "s"} was lost; reading the service's ${o.noun.read} to see what was created...\n`);
  let settled: Map<string, Settlement>;
  try {
    const keys = new Set(rows.map((r) => r.key));
    settled = await settleLedger(ledger, await finder(), deps, { only: (k) => keys.has(k), wait: false, noun: o.noun.row, done: (id, key) => createdFrom(ledger.row(key), id!) });
  } catch (e) {
    if (!deps.signal.aborted) o.say(`Could not read the ${o.noun.read} back (${(e as Error).message}); those ${o.noun.row}s stay recorded for the next run.\n`);
    return rows.forEach(unknown);
  }
  let notYet = 0;
  let notCreated = 0;
  for (const r of rows) {
    const s = settled.get(r.key);
    if (s?.state === "applied") o.outcomes.set(r.row, { status: "created", label: r.label, reference: r.reference, id: s.id });
    else if (s?.state === "uncertain") o.outcomes.set(r.row, { status: "unknown", label: r.label, reference: r.reference, error: s.reason });
    else if (s?.state === "not-applied") {
      notCreated++;
      const status = answered.get(r.key);
      const error = `not created: ${status === undefined ? "its answer was lost and its settle time has passed" : `the service answered ${status}`}, and reading back found nothing it created; run the same command again to send it`;
      o.outcomes.set(r.row, { status: "failed", label: r.label, reference: r.reference, error, unavailable: true });
    } else {
      notYet++;
      unknown(r);
    }
  }
  if (notCreated > 0) {
    o.say(`${notCreated} ${o.noun.row}${notCreated === 1 ? " was" : "s were"} proven not created (not found on the service once its request was over): a rerun sends ${notCreated === 1 ? "it" : "them"}.\n`);
  }
  if (notYet > 0) {
    o.say(
      `${notYet} ${o.noun.row}${notYet === 1 ? " was" : "s were"} not found on the service yet; not sent again in this run, since ` +
        `${notYet === 1 ? "its request" : "their requests"} may still be in progress there.\n`,
    );
  }
}

/** The status each row's request was answered with by the service itself (InputLedger.markAnswered), for rows it answered. */
function answerStatuses(ledger: InputLedger, rows: readonly KeyedRow[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) {
    const state = ledger.row(r.key);
    if (state?.state === "in_flight" && state.answer_status !== undefined) out.set(r.key, state.answer_status);
  }
  return out;
}

/**
 * The pause before reading back: RECONCILE_DELAY_MS, or until the settle time of the latest request the service itself
 * answered (a lagging read's allowance after its answer, settle-window.ts), so that read is conclusive.
 */
function readBackDelay(ledger: InputLedger, answered: ReadonlyMap<string, number>, now: Date): number {
  const until = [...answered.keys()].map((key) => Date.parse((ledger.row(key) as InFlight).settle_at) - now.getTime());
  return Math.max(RECONCILE_DELAY_MS, ...until);
}
