// Entries a dead run left in flight in a shared ledger: a machine killed while its requests were out. No other
// machine can rerun that machine's input, so the next run that meets the same rows takes the entries over as its own
// and settles them as a rerun would (settle.ts): found on the service -> done; not found once their settle time has
// passed -> not applied, sent; before it -> waited for, or reported in flight with --no-wait. A run that may still be
// alive keeps its entries (postgres-leases.ts, holderMayBeAlive).
import type { InFlight, RowState } from "./entry.js";
import { settleAtFromSent, type SettleWindow } from "./settle-window.js";
import type { Entry, LedgerStore } from "./store.js";

/** What a takeover needs of an input's record (input-ledger.ts's InputLedger, which opens with one). */
export interface TakingRecord {
  readonly store: LedgerStore;
  readonly source: string;
  readonly forceNew: boolean;
  readonly readOnly: boolean;
  readonly window: SettleWindow;
  nextAttempt(): number;
  usualKey(rowKey: string): string;
  row(rowKey: string): RowState | undefined;
  note(entries: ReadonlyArray<readonly [string, RowState]>, o: { store: boolean }): void;
}

/**
 * Takes over the orphaned entries among `found` (row key -> another input's entry in flight) as this input's rows.
 * Returns the row keys taken; the others are held by a run that may be alive (or another run took them first).
 * A dry run takes nothing in the store: it settles them in memory, as the run would.
 */
export async function takeOverOrphans(ledger: TakingRecord, found: ReadonlyMap<string, Entry>): Promise<Set<string>> {
  const { store } = ledger;
  // --force-new sends rows as new under keys of its own: it never settles another run's write in flight.
  if (found.size === 0 || ledger.forceNew || store.orphaned === undefined || store.takeOver === undefined) return new Set();
  const rowKeys = new Map([...found].map(([rowKey, e]) => [e.key, rowKey]));
  const orphans = (await store.orphaned([...rowKeys.keys()])).filter((e) => e.state.state === "in_flight");
  if (orphans.length === 0) return new Set();
  const now = new Date();
  // The dead run's requests keep their rows together (a request is applied whole), under numbers of this run's.
  const attempts = new Map<number, number>();
  const moves = orphans.map((from) => {
    const s = from.state as InFlight;
    let attempt = attempts.get(s.attempt);
    if (attempt === undefined) attempts.set(s.attempt, (attempt = ledger.nextAttempt()));
    return { from, to: { key: from.key, input: ledger.source, state: restated(s, attempt, now, ledger) } };
  });
  const taken = new Set(ledger.readOnly ? moves.map((m) => m.from.key) : await store.takeOver(moves));
  const out = new Map<string, InFlight>();
  for (const m of moves) if (taken.has(m.from.key)) out.set(rowKeys.get(m.from.key)!, m.to.state);
  // The row as the dead run sent it, whatever this input had recorded of it (a claim refused while that run held it:
  // failed here), and in this input's record: its next run settles it even if this one stops first.
  ledger.note([...out], { store: false });
  return new Set(out.keys());
}

/**
 * This input's entries in flight in a shared ledger that its record on this machine lacks: left by a run of the same
 * input on another machine that died (checkout and a single report upload are one input on every machine; a sheet
 * may have the same path on two). This run holds the input now: they are taken over as its rows, and settled before
 * anything is sent, as its own earlier run's would be. A row this machine recorded is its own record's to settle.
 */
export async function takeOverInput(ledger: TakingRecord): Promise<void> {
  if (ledger.store.shared !== true) return;
  const prefix = ledger.usualKey("");
  const found = new Map<string, Entry>();
  for (const e of await ledger.store.inFlight()) {
    if (e.input !== ledger.source || !e.key.startsWith(prefix)) continue;
    const rowKey = e.key.slice(prefix.length);
    if (ledger.row(rowKey) === undefined) found.set(rowKey, e);
  }
  await takeOverOrphans(ledger, found);
}

/**
 * An entry as this run holds it. One recorded ahead of its request (await_sent) whose sent time never reached the
 * store (it is written without waiting: the run died first) may have left at any moment until its run died, which
 * is before now: its settle time counts from now, and it is marked sent, since it may have been.
 */
export function restated(s: InFlight, attempt: number, now: Date, ledger: Pick<TakingRecord, "window">): InFlight {
  if (!s.await_sent || s.sent_at !== undefined) return { ...s, attempt };
  const settleAt = Math.max(Date.parse(s.settle_at), settleAtFromSent(now, ledger.window).getTime());
  return { ...s, attempt, sent_at: now.toISOString(), settle_at: new Date(settleAt).toISOString() };
}
