// What happened to each row of the file, kept small (one record per row: the ledger needs as much) and keyed by
// the spreadsheet row number, so the results can be written by reading the file again rather than keeping it.
import { reasonText, type CellProblem } from "../csv/row-types.js";

export type Status =
  /** Created (or added) by this run. */
  | "created"
  /** Updated by this run (PATCH). */
  | "updated"
  /** Already done by an earlier run, according to the ledger or a reconciliation. */
  | "skipped"
  /** Not sent: it matches a recent shipment another machine created (shipments/look/); done, like skipped. */
  | "matched"
  /** Not sent: the stored record already holds what the row says (an update's plan, batch/update-plan.ts). */
  | "unchanged"
  /**
   * Not sent: created by an earlier run, and edited in the file since (shipments/changed-rows.ts); `id` is that
   * shipment, `changes` what the row changes. Left as it is without --update-changed or --force-new.
   */
  | "changed"
  /** Not sent: a row the ledger does not know that may be a created row edited (shipments/changed-rows.ts). */
  | "unsure"
  /** Verified valid (address verify). */
  | "valid"
  /** Not done: invalid input, refused by the service, or a definite failure. */
  | "failed"
  /** Not sent: the run stopped before (Ctrl-C, a fatal error) or a dry run. */
  | "pending"
  /** Its request may have reached the service and the answer was lost; reconciliation could not prove either way. */
  | "unknown";

export interface Outcome {
  status: Status;
  label: string;
  reference?: string;
  id?: number;
  error?: string;
  problems?: CellProblem[];
  /** The failure came from the service being unavailable (5xx, network, 429 after retries), not from the row. */
  unavailable?: boolean;
  /** Failed shipctl's own checks of the input (never sent): decides exit 2 when nothing else happened. */
  invalid?: boolean;
  /** A dry run's prediction for a row it would send: what the request carries, in one line (dry-run-report.ts). */
  sends?: string;
  /** A changed row's fields since it was created (status "changed", or "updated" by --update-changed). */
  changes?: ChangedField[];
  /** The error its request failed with, as thrown: `address add` rethrows it, with its exit code (write-sender.ts). */
  cause?: unknown;
}

/** One field a row changes: `field` as the service names it, `column` as the file does. */
export interface ChangedField {
  field: string;
  column: string;
  from: unknown;
  to: unknown;
}

export class Outcomes {
  private readonly byRow = new Map<number, Outcome>();
  /** Kept as rows change, so the progress line can ask after every request without counting the whole map. */
  private readonly counts = new Map<Status, number>();

  set(row: number, outcome: Outcome): void {
    const before = this.byRow.get(row);
    if (before) this.counts.set(before.status, this.count(before.status) - 1);
    this.counts.set(outcome.status, this.count(outcome.status) + 1);
    this.byRow.set(row, outcome);
  }

  get(row: number): Outcome | undefined {
    return this.byRow.get(row);
  }

  update(row: number, change: Partial<Outcome>): void {
    const current = this.byRow.get(row);
    if (current) this.set(row, { ...current, ...change });
  }

  /** In row order. */
  entries(): Array<[number, Outcome]> {
    return [...this.byRow.entries()].sort((a, b) => a[0] - b[0]);
  }

  count(status: Status): number {
    return this.counts.get(status) ?? 0;
  }

  get size(): number {
    return this.byRow.size;
  }

  /** Whether every row not done failed shipctl's own input checks (so nothing of it reached the service). */
  onlyInvalid(): boolean {
    return this.byRow.size > 0 && [...this.byRow.values()].every((o) => o.status === "failed" && o.invalid === true);
  }

  anyUnavailable(): boolean {
    // A lost answer is a network failure too.
    return [...this.byRow.values()].some((o) => (o.unavailable && o.status === "failed") || o.status === "unknown");
  }
}

export function problemsText(problems: readonly CellProblem[]): string {
  return problems.map((p) => (p.column === "row" ? p.reason : `${p.column}: ${reasonText(p)}`)).join("; ");
}
