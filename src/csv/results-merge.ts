// One record per input: a results file holds every row of its original file with its latest outcome. A run of the
// original, of its errors file (fixed in a spreadsheet) or of the results file itself updates the lines of the rows
// it touches and keeps the others. Lines are matched by the row's key (its identity in the ledger), else by its
// row number in the original (a row that had no key yet: it was invalid), both carried as columns
// (origin-columns.ts) because a spreadsheet keeps nothing else.

/** One line of a results file. */
export interface ResultLine {
  /** Row number in the original file. */
  row: number;
  key: string;
  /** The input's cells, by normalised column name. */
  cells: Map<string, string>;
  /** shipment_id or address_id ("" when none). */
  id: string;
  status: string;
  error: string;
  /** What was read differently in the row (value-notes.ts); absent in a results file written before the column. */
  note?: string;
}

/** Statuses of a row the run (or an earlier one) created or updated: it exists at the service with `id`. */
const DONE = new Set(["created", "updated", "skipped", "matched"]);
/** What a rerun says of a row edited since it was created: never hidden behind the line of its creation. */
const EDITED = new Set(["changed", "unsure", "updated"]);

/**
 * The lines of `earlier` with those of `fresh` in their place, in original row order. With `keepCreated` (commands
 * that create), a line recording a created row is kept unless the new one names another id: what exists was not
 * undone by a later run that says less (the original's cell still invalid after the row was created from its fixed
 * copy in the errors file, a run stopped before the row), and the cells it was created with stay on record.
 */
export function mergeResultLines(earlier: readonly ResultLine[], fresh: readonly ResultLine[], keepCreated: boolean): ResultLine[] {
  const byKey = new Map<string, ResultLine>();
  const byRow = new Map<number, ResultLine>();
  for (const line of earlier) {
    if (line.key !== "") byKey.set(line.key, line);
    byRow.set(line.row, line);
  }
  const freshKeys = new Set(fresh.map((l) => l.key).filter((k) => k !== ""));
  const replaced = new Set<ResultLine>();
  const out: ResultLine[] = [];
  for (const line of fresh) {
    let old = line.key !== "" ? byKey.get(line.key) : undefined;
    // By row only when that line's own key is not this run's for another row (it is matched there).
    const atRow = byRow.get(line.row);
    if (old === undefined && atRow !== undefined && !replaced.has(atRow) && (atRow.key === "" || !freshKeys.has(atRow.key))) old = atRow;
    // A row not created because it may be an edit of a created one (unsure, matched by its row only) is another line:
    // the shipment that exists keeps its own, so the file still names it (and checkout --from pays it).
    if (keepCreated && line.status === "unsure" && old !== undefined && old.id !== "" && DONE.has(old.status)) {
      out.push(line);
      continue;
    }
    if (old !== undefined) replaced.add(old);
    // A row edited since it was created says so (changed-rows.ts), over the line of its creation.
    const keep = keepCreated && old !== undefined && old.id !== "" && DONE.has(old.status) && !EDITED.has(line.status) && (line.id === "" || line.id === old.id);
    out.push(keep ? { ...old!, row: line.row } : line);
  }
  for (const line of earlier) if (!replaced.has(line)) out.push(line);
  // Stable: lines of one row number (an original edited since) stay in the order found.
  return out.sort((a, b) => a.row - b.row);
}
