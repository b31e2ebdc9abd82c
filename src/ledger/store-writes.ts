// Entries written to the store without the run waiting for them (outcomes, sent times): one key's writes stay in
// order, each after the one before it, and a key's next claim waits for them (InputLedger.record). The entries noted
// together (a request's rows) are written together: one write per request, not one per row.
import type { Entry, LedgerStore } from "./store.js";

/**
 * A request refused in part never leaves, so the rows claimed with it are given up at once (for claims of a kind that
 * replace only entries not applied: a failed one, or none). Left in flight under a run that stops here, they would
 * keep the other run of the same request out, and its claims half-refused the same way would keep this one out in
 * turn, each run leaving in flight what the next refuses (two machines, one sheet, each rerun until done).
 */
export function giveUpClaims(store: LedgerStore, claims: readonly Entry[], refused: ReadonlySet<string>): Promise<void> {
  const error = "not sent: other rows of its request were refused";
  return store.record(claims.filter((c) => !refused.has(c.key)).map((c) => ({ key: c.key, input: c.input, state: { state: "failed", error } })));
}

export class LaterWrites {
  private pending = new Map<string, Promise<unknown>>();

  constructor(private readonly store: LedgerStore) {}

  /** Writes entries (never none: each caller has some) after the writes under way for their keys. */
  add(entries: readonly Entry[]): void {
    const before = entries.map((e) => this.pending.get(e.key)).filter((p) => p !== undefined);
    const write: Promise<unknown> = (before.length === 0 ? Promise.resolve() : Promise.all(before))
      .then(() => this.store.record(entries, { durable: false }))
      // A write lost here leaves the entries in flight in the ledger: the next run settles them.
      .catch(() => undefined)
      .finally(() => {
        for (const e of entries) if (this.pending.get(e.key) === write) this.pending.delete(e.key);
      });
    for (const e of entries) this.pending.set(e.key, write);
  }

  /** Resolves once the writes under way for these keys (or every key) are done. */
  async done(keys?: readonly string[]): Promise<void> {
    await Promise.all(keys === undefined ? new Set(this.pending.values()) : keys.map((k) => this.pending.get(k)));
  }
}
