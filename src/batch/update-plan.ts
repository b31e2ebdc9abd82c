// The plan of an update from a CSV file (`shipment update --csv`, `address update --csv`): the current record of each
// row's id is read first, several at a time, and the row is compared with it as it would be sent. Only the rows that
// differ are sent: an update may cost more than its fields (the sandbox clears a shipment's price on every PATCH,
// even one that changes nothing), so an export sent back with one value edited must not rewrite every record. A row
// whose record cannot be read, or cannot be compared, is sent: a change skipped is worse than a value sent again.
// The dry run and the run make the same plan, print it the same way, and --json carries it (`plan`).
import type { CallOptions } from "../api/client-types.js";
import { AuthError, InterruptedError } from "../errors.js";
import type { BatchRun } from "./batch-run.js";
import { DEFAULT_READ_CONCURRENCY } from "./concurrency.js";
import { mapLimit } from "./pool.js";
import type { ChangedField } from "./outcomes.js";
import { counted } from "../output/counted.js";
import { serviceFlags } from "../output/shell-quote.js";

/** What comparing a row with its current record found: its changes, or why it cannot be compared. */
export type Comparison = { changes: ChangedField[] } | { uncompared: string };

/** A row's current record, or why it could not be read. */
export type Current<R> = { record: R } | { unread: string };

export interface PlanEntry {
  row: number;
  id: number;
  status: "update" | "unchanged";
  changes: ChangedField[];
  /** Why the row is sent without knowing what it changes (its record could not be read or compared). */
  reason?: string;
  /** Its record holds something an update may clear (a shipment's price). */
  priced?: boolean;
}

/**
 * Reads the record of every id, DEFAULT_READ_CONCURRENCY at a time as `due` reads its pages; the API client retries
 * each read as any read (429, 5xx, a dropped connection). A read that still fails is that row's reason to be sent
 * as it is; a refused token stops the run before anything is sent, and so does Ctrl-C.
 */
export async function readCurrent<R>(
  run: Pick<BatchRun, "deps" | "call">,
  plan: UpdatePlan,
  ids: ReadonlySet<number>,
  read: (id: number, call: CallOptions) => Promise<R>,
): Promise<Map<number, Current<R>>> {
  const { signal } = run.deps;
  const list = [...ids];
  if (list.length > 0) run.deps.io.err(`Reading the current ${plan.records(list.length)}...\n`);
  const found = await mapLimit(
    list,
    DEFAULT_READ_CONCURRENCY,
    async (id): Promise<Current<R>> => {
      try {
        return { record: await read(id, run.call) };
      } catch (error) {
        if (error instanceof AuthError || signal.aborted) throw error;
        return { unread: (error as Error).message };
      }
    },
    () => !signal.aborted,
  );
  if (signal.aborted) throw new InterruptedError("interrupted while reading the current records; nothing was sent");
  return new Map(list.map((id, i) => [id, found[i]!]));
}

export class UpdatePlan {
  private readonly byRow = new Map<number, PlanEntry>();

  /** `words`: how the plan names its records ("shipment", "shipment_id"). */
  constructor(private readonly words: { noun: "shipment" | "address"; idKey: string }) {}

  /** Decides a row: unchanged only when its record was read and compared and nothing differs. */
  decide<R>(row: number, id: number, current: Current<R> | undefined, compare: (record: R) => Comparison, priced: (record: R) => boolean): PlanEntry {
    let entry: PlanEntry;
    if (current === undefined || "unread" in current) {
      entry = { row, id, status: "update", changes: [], reason: `its current record could not be read (${current?.unread ?? "not read"})` };
    } else {
      const found = compare(current.record);
      if ("uncompared" in found) entry = { row, id, status: "update", changes: [], reason: found.uncompared };
      else entry = { row, id, status: found.changes.length > 0 ? "update" : "unchanged", changes: found.changes };
      if (entry.status === "update" && priced(current.record)) entry.priced = true;
    }
    this.byRow.set(row, entry);
    return entry;
  }

  /** "1 shipment", "60 addresses". */
  records(n: number): string {
    return counted(n, this.words.noun);
  }

  of(row: number): PlanEntry | undefined {
    return this.byRow.get(row);
  }

  get size(): number {
    return this.byRow.size;
  }

  count(status: PlanEntry["status"]): number {
    return [...this.byRow.values()].filter((e) => e.status === status).length;
  }

  /** "Plan: 2 to update, 58 unchanged." */
  summary(earlier: number): string {
    const already = earlier > 0 ? `, ${earlier} already updated by an earlier run` : "";
    return `Plan: ${this.count("update")} to update, ${this.count("unchanged")} unchanged${already}.`;
  }

  /** One line per row to update: what it changes, or why it is sent without knowing. */
  lines(): string[] {
    return this.sorted()
      .filter((e) => e.status === "update")
      .map((e) => `  row ${e.row} (${this.words.noun} ${e.id}): ${e.reason !== undefined ? `sent as it is, not compared: ${e.reason}` : e.changes.map(changeText).join("; ")}`);
  }

  /** The ids to update whose records hold a price. */
  priced(): number[] {
    return [...new Set(this.sorted().filter((e) => e.priced).map((e) => e.id))];
  }

  toJSON(): Array<Record<string, unknown>> {
    return this.sorted().map((e) => ({
      row: e.row,
      [this.words.idKey]: e.id,
      status: e.status,
      changes: e.changes,
      ...(e.reason !== undefined ? { reason: e.reason } : {}),
    }));
  }

  private sorted(): PlanEntry[] {
    return [...this.byRow.values()].sort((a, b) => a.row - b.row);
  }
}

/**
 * The plan on stderr, before anything is sent (and in a dry run): its counts (kept with --quiet), each row to update
 * with what it changes, and, when shipments to update hold a price, that the update may clear it and how to price
 * them again.
 */
export function reportPlan(run: Pick<BatchRun, "deps">, plan: UpdatePlan, earlier: number): void {
  const { io, theme } = run.deps;
  if (plan.size === 0) return;
  io.alert(`${plan.summary(earlier)}\n`);
  for (const line of plan.lines()) io.err(`${line}\n`);
  const priced = plan.priced();
  if (priced.length === 0) return;
  // The command reaches the service the run updated (the ids are its), as every command shipctl prints to run does.
  const ids = priced.length <= MAX_IDS_SHOWN ? priced.join(",") : "<their ids>";
  const quote = ["shipctl checkout --quote", ids, ...serviceFlags(run.deps.globals)];
  io.alert(
    `${theme.err.warn("Note:")} ${plan.records(priced.length)} to update ${priced.length === 1 ? "has" : "have"} a price` +
      `${priced.length <= MAX_IDS_SHOWN ? ` (${priced.join(", ")})` : ""}: the service may clear a shipment's price when it is updated. ` +
      `Price ${priced.length === 1 ? "it" : "them"} again once updated: ${quote.join(" ")}\n`,
  );
}

/** Ids named in the price note and its command: beyond this, the command would not fit a line. */
const MAX_IDS_SHOWN = 20;

/** `value 850 → 875`, `title "Harbour" → "Harbour, dusk"`. */
export function changeText(c: ChangedField): string {
  return `${c.column} ${valueText(c.from)} → ${valueText(c.to)}`;
}

function valueText(value: unknown): string {
  if (value === undefined || value === null || value === "") return "(none)";
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** Whether a value sent and a value stored are the same: absent, null and "" alike (the service stores "" as null). */
export function sameValue(sent: unknown, stored: unknown): boolean {
  const absent = (v: unknown) => v === undefined || v === null || v === "";
  return absent(sent) ? absent(stored) : sent === stored;
}
