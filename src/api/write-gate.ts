// The last check before each attempt of a write that must not be repeated (a call not idempotent: create, store,
// pay, upload) leaves, a retry after a 429 or a refused connection included. A shared ledger's lease
// (ledger/postgres-leases.ts) guards writes here: once it may have lapsed, another machine may take this run's rows
// over and send them, so no attempt may leave. Held for the process, as leases are (an entry's holder is its pid).
const guards = new Set<() => void>();

/** Adds a check that throws to refuse a write; returns its removal. */
export function guardWrites(check: () => void): () => void {
  guards.add(check);
  return () => void guards.delete(check);
}

/** Throws what a guard throws: the attempt is not sent. */
export function checkWriteGuards(): void {
  for (const check of guards) check();
}
