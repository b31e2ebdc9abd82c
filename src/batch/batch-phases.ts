// Named moments of a CSV batch, as performance marks. bench/batch.mjs reads them when the process exits to show where
// the end-to-end time goes (start-up, connection and tables, journal, first pass, address checks, sending, results);
// a handful per run costs nothing.
export type BatchPhase = "started" | "connected" | "opened" | "validated" | "verified" | "first-request" | "sent" | "finished";

export function markPhase(phase: BatchPhase): void {
  performance.mark(`shipctl:batch:${phase}`);
}
