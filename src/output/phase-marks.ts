// Named moments of a run, as performance marks ("shipctl:batch:validated"). The benchmarks read them when the process
// exits to show where the end-to-end time goes; a handful per run costs nothing.

/** A CSV batch: start-up, connection and tables, ledger, first pass, address checks, sending, results. */
export type BatchPhase = "started" | "connected" | "opened" | "validated" | "verified" | "first-request" | "sent" | "finished";
/** A report batch: start-up, checks, client, reads, uploads. */
export type ReportPhase = "started" | "checked" | "ready" | "first-upload" | "uploaded";

export type Phase = `batch:${BatchPhase}` | `report:${ReportPhase}`;

export function markPhase(phase: Phase): void {
  performance.mark(`shipctl:${phase}`);
}
