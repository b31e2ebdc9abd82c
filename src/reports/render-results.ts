// What `report upload` prints on stdout: a table for people, or one JSON document with --json. The table renderer
// (cli-table3 and its helpers) is loaded only when a table is printed: a --json batch never needs it.
import type { Deps } from "../deps.js";
import { printJson, withError } from "../output/json.js";
import type { ErrorJson } from "../errors.js";
import type { Column } from "../output/table.js";
import { formatBytes } from "./wording.js";
import type { Photo } from "./report-types.js";
import type { PreparedReport } from "./prepare-reports.js";
import type { ReportOutcome, ReportResult } from "./send-report.js";
import { reusedJson } from "./reused-photos.js";

/** A result in words: "already stored" for already_stored. */
export const resultLabel = (result: ReportResult): string => result.replace("_", " ");

export function photoJson({ group, side, file, type, bytes, width, height, fitted }: Photo) {
  return { group, side, file, type, bytes, width, height, fitted_from_bytes: fitted?.fromBytes ?? null };
}

/** `report` gives the fitted copies (and, unless `withPhotos` is false, the photos) of what was prepared for it. */
export function outcomeJson(o: ReportOutcome, report?: PreparedReport, withPhotos = true) {
  return {
    shipment_id: o.shipmentId,
    set: o.set,
    folder: o.folder,
    result: o.result,
    message: o.message,
    bytes_sent: o.bytes,
    window: o.window ?? null,
    settle_at: o.settleAt?.toISOString() ?? null,
    fitted: (report?.photos ?? []).filter((p) => p.fitted).map((p) => ({ file: p.file, from_bytes: p.fitted!.fromBytes, to_bytes: p.bytes })),
    reused: (report?.reused ?? []).map(reusedJson),
    ...(report && withPhotos ? { photos: report.photos.map(photoJson) } : {}),
  };
}

/**
 * One report: the photos as sent, in upload order. A report the service held already (or the ledger and the
 * shipment say was stored earlier) had nothing sent: it is shown as its result, like a batch's row, not as an upload.
 */
export async function printSingle(deps: Deps, outcome: ReportOutcome, report: PreparedReport, error?: ErrorJson): Promise<void> {
  const nothingSent = outcome.result === "already_stored" || outcome.result === "skipped";
  if (deps.globals.json) {
    printJson(deps.io, withError(outcomeJson(outcome, report, !nothingSent), error));
    return;
  }
  if (nothingSent) {
    await printOutcomes(deps, [outcome]);
    return;
  }
  await printTable(
    deps,
    [
      { header: "#", value: (p: Photo) => report.photos.indexOf(p) + 1, align: "right", keep: true },
      { header: "GROUP", value: (p) => p.group, keep: true },
      { header: "SIDE", value: (p) => p.side, keep: true },
      { header: "TYPE", value: (p) => p.type.toUpperCase(), keep: true },
      { header: "SIZE", value: (p) => formatBytes(p.bytes), align: "right", keep: true },
      { header: "FITTED FROM", value: (p) => (p.fitted ? formatBytes(p.fitted.fromBytes) : "") },
      { header: "FILE", value: (p) => p.file },
    ],
    report.photos,
  );
}

/** `reports[i]` is what was prepared for `outcomes[i]`: its fitted copies are listed with the result. */
export async function printBatch(
  deps: Deps,
  outcomes: readonly ReportOutcome[],
  reports: readonly PreparedReport[],
  counts: Record<ReportResult, number>,
  error?: ErrorJson,
): Promise<void> {
  if (deps.globals.json) {
    const set = outcomes[0]?.set ?? null;
    printJson(deps.io, withError({ set, results: outcomes.map((o, i) => outcomeJson(o, reports[i], false)), counts }, error));
    return;
  }
  await printOutcomes(deps, outcomes);
}

/** One row per report: SHIPMENT RESULT SENT FOLDER DETAIL. */
async function printOutcomes(deps: Deps, outcomes: readonly ReportOutcome[]): Promise<void> {
  await printTable(
    deps,
    [
      { header: "SHIPMENT", value: (o: ReportOutcome) => o.shipmentId, keep: true },
      { header: "RESULT", value: (o) => resultLabel(o.result), keep: true },
      { header: "SENT", value: (o) => (o.bytes ? formatBytes(o.bytes) : ""), align: "right", keep: true },
      { header: "FOLDER", value: (o) => o.folder },
      { header: "DETAIL", value: (o) => o.message },
    ],
    outcomes,
  );
}

async function printTable<R>(deps: Deps, columns: Column<R>[], rows: readonly R[]): Promise<void> {
  const { renderTable, tableWidth } = await import("../output/table.js");
  deps.io.out(renderTable(columns, rows, { theme: deps.theme.out, width: tableWidth(deps.io) }));
}

export function countResults(outcomes: readonly ReportOutcome[]): Record<ReportResult, number> {
  const counts: Record<ReportResult, number> = { stored: 0, already_stored: 0, skipped: 0, refused: 0, failed: 0, unknown: 0, interrupted: 0 };
  for (const o of outcomes) counts[o.result]++;
  return counts;
}
