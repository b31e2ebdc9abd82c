// Named moments of a batch upload, as performance marks. bench/report.mjs reads them when the process exits to show
// where the end-to-end time goes (start-up, checks, client, reads, uploads); a handful per run costs nothing.
export type ReportPhase = "started" | "checked" | "ready" | "first-upload" | "uploaded";

export function markPhase(phase: ReportPhase): void {
  performance.mark(`shipctl:report:${phase}`);
}
