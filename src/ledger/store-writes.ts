// Entries written to the store without the run waiting for them (outcomes, sent times): one key's writes stay in
// order, each after the one before it, and a key's next claim waits for them (InputLedger.record).
import type { Entry, LedgerStore } from "./store.js";

export class LaterWrites {
  private pending = new Map<string, Promise<unknown>>();

  constructor(private readonly store: LedgerStore) {}

  add(entries: readonly Entry[]): void {
    for (const e of entries) {
      const before = this.pending.get(e.key);
      const write: Promise<unknown> = (before ?? Promise.resolve())
        .then(() => this.store.record([e], { durable: false }))
        // A write lost here leaves the entry in flight in the ledger: the next run settles it.
        .catch(() => undefined)
        .finally(() => {
          if (this.pending.get(e.key) === write) this.pending.delete(e.key);
        });
      this.pending.set(e.key, write);
    }
  }

  /** Resolves once the writes under way for these keys (or every key) are done. */
  async done(keys?: readonly string[]): Promise<void> {
    await Promise.all(keys === undefined ? this.pending.values() : keys.map((k) => this.pending.get(k)));
  }
}
