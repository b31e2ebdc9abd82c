// The second pass of a dry run: every row printed as it would be sent (or why it would not be), without keeping the
// rows. Exit 0 when every row would be sent, 2 when some would fail, 7 when addresses could not be verified because
// the service was unavailable.
import { ExitCode } from "../errors.js";
import type { BatchRun } from "./batch-run.js";
import { dryRunPrinter, spilledBlockedStore } from "./dry-run.js";
import type { Notes } from "../csv/value-notes.js";
import type { Ready } from "./before-send.js";
import { openScan, type Keyed, type ScanSpec, type ValidBase } from "../csv/scan.js";
import type { Change } from "../csv/row-types.js";
import type { Validation } from "./validate-pass.js";
import { BULK_CHUNK_BYTES } from "../csv/csv-source.js";
import { createSpill } from "../csv/spill.js";

/** A valid row as a dry run prints it. */
export interface DryRunItem<P> {
  row: number;
  label: string;
  reference?: string;
  changes: readonly Change[];
  ready: Ready<P>;
}

/** Reads the file again for the valid rows (commands whose first pass keeps nothing for later). */
export async function dryRunPass<V extends ValidBase & { changes: Change[] }, P>(
  run: BatchRun,
  spec: ScanSpec<V>,
  validation: Validation,
  notes: Notes,
  kind: "shipment" | "address",
  ready: (row: Extract<Keyed<V>, { ok: true }>) => Ready<P>,
  perRequest = 1,
): Promise<number> {
  const scan = await openScan(run.source, spec, BULK_CHUNK_BYTES);
  async function* items(): AsyncGenerator<Array<DryRunItem<P>>> {
    for await (const batch of scan.batches) {
      const out: Array<DryRunItem<P>> = [];
      for (const row of batch) {
        if (!row.ok) continue;
        const valid = row as Extract<Keyed<V>, { ok: true }>;
        out.push({ row: row.row, label: row.label, reference: row.reference, changes: valid.changes, ready: ready(valid) });
      }
      yield out;
    }
  }
  return printDryRun(run, validation, notes, kind, items(), perRequest);
}

/** Prints the valid rows as they would be sent, then the counts. */
export async function printDryRun<P>(
  run: BatchRun,
  validation: Validation,
  notes: Notes,
  kind: "shipment" | "address",
  items: AsyncIterable<Iterable<DryRunItem<P>>>,
  perRequest = 1,
): Promise<number> {
  const { deps } = run;
  // A file's blocked rows can be all of its rows: in --json they wait for the end of the document in a spill.
  const spill = deps.globals.json ? await createSpill<Record<string, unknown>>() : undefined;
  try {
    const printer = dryRunPrinter(deps.io, deps.globals.json, kind, "row", spill && spilledBlockedStore(spill));
    let wouldSend = 0;
    let blocked = 0;
    let unavailable = false;
    for await (const batch of items) {
      for (const item of batch) {
        const r = item.ready;
        if ("error" in r) {
          blocked++;
          unavailable ||= r.unavailable === true;
          printer.blocked({ row: item.row, reference: item.reference, label: item.label, reason: r.error });
          continue;
        }
        wouldSend++;
        printer.row({ row: item.row, reference: item.reference, body: r.payload as Record<string, unknown>, changes: item.changes });
      }
    }
    const requests = Math.ceil(wouldSend / perRequest);
    await printer.end({ counts: { rows: validation.total, invalid: validation.invalid.length, would_send: wouldSend, blocked, requests }, ...notes.toJSON() });
    const blockedText = blocked > 0 ? `; ${blocked} would fail their address check` : "";
    deps.io.alert(`Dry run: ${wouldSend} row${wouldSend === 1 ? "" : "s"} would be sent in ${requests} request${requests === 1 ? "" : "s"}${blockedText}. Nothing was sent.\n`);
    if (blocked + validation.invalid.length === 0) return ExitCode.Ok;
    return unavailable ? ExitCode.Unavailable : ExitCode.Usage;
  } finally {
    await spill?.dispose();
  }
}
