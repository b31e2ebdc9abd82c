// The first pass: every row is read and checked before anything is sent. Only what later steps need is kept: the
// invalid rows (to report them all at once), and whatever the caller collects from valid rows (distinct addresses,
// rows to reconcile) through `onValid`. A promise `onValid` returns is awaited before the next row is read.
import { InterruptedError } from "../errors.js";
import { openScan, type Keyed, type ScanMeta, type ScanSpec, type ValidBase } from "../csv/scan.js";
import type { CsvSource } from "../csv/csv-source.js";
import type { InvalidRow } from "../csv/row-types.js";

export interface Validation {
  meta: ScanMeta;
  total: number;
  valid: number;
  invalid: InvalidRow[];
}

export async function validatePass<V extends ValidBase>(
  source: CsvSource,
  spec: ScanSpec<V>,
  signal: AbortSignal,
  onValid: (row: Extract<Keyed<V>, { ok: true }>) => Promise<void> | void,
  onInvalid?: (row: InvalidRow) => void,
): Promise<Validation> {
  const scan = await openScan(source, spec);
  const result: Validation = { meta: scan.meta, total: 0, valid: 0, invalid: [] };
  for await (const row of scan.rows) {
    if (signal.aborted) throw new InterruptedError("interrupted while reading the file; nothing was sent");
    result.total++;
    if (!row.ok) {
      result.invalid.push(row);
      onInvalid?.(row);
    } else {
      result.valid++;
      const pending = onValid(row as Extract<Keyed<V>, { ok: true }>);
      if (pending) await pending;
    }
  }
  return result;
}
