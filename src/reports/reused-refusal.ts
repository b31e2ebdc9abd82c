// What a run says of reused photos (reused-photos.ts finds them): every one named on stderr beside the file whose bytes
// it repeats, and its report refused before anything is sent (exit 2, as a problem with the photos), the batch's
// other reports going on; or, with --allow-reused, sent on purpose with a note saying so.
import type { ReportSet } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { ExitCode } from "../errors.js";
import { formatTimestamp } from "../output/time-format.js";
import type { PreparedReport } from "./prepare-reports.js";
import { outcomeMaker, type ReportOutcome } from "./report-outcome.js";
import type { EarlierUse, ReusedPhoto } from "./report-types.js";

export const REUSED_FIX = "photograph the set anew (a condition report shows the artwork as it is at that moment); --allow-reused sends these photos on purpose";

/** The reports (by index) refused for reused photos, with their outcome; none with `allow`. Says what it found. */
export function reusedOutcomes(deps: Deps, set: ReportSet, reports: readonly PreparedReport[], found: ReadonlyMap<number, ReusedPhoto[]>, allow: boolean): Map<number, ReportOutcome> {
  const refused = new Map<number, ReportOutcome>();
  const t = deps.theme.err;
  for (const [i, reused] of [...found].sort(([a], [b]) => a - b)) {
    const report = reports[i]!;
    report.reused = reused;
    const where = `${t.bold(report.target.label)} (shipment ${report.target.shipmentId}, set ${set})`;
    const lines = reused.map((r) => `  ${t.bold(r.file)}: the same photo, byte for byte, as ${r.earlier.file}, ${r.earlier.state === "in_this_batch" ? "of" : "sent in"} ${sourceText(r.earlier)}\n`).join("");
    if (allow) {
      deps.io.err(`${t.warn("Note:")} reused photos in ${where}, sent on purpose (--allow-reused):\n${lines}`);
      continue;
    }
    deps.io.alert(`${t.error("Reused photos in")} ${where}: nothing sent for it\n${lines}    ${t.dim(`fix: ${REUSED_FIX}`)}\n`);
    refused.set(i, outcomeMaker({ set }, report)("refused", refusalMessage(reused), ExitCode.Usage));
  }
  return refused;
}

/** One sentence for the results table and --json: how many, from which sets, and one pair of files. */
function refusalMessage(reused: readonly ReusedPhoto[]): string {
  const files = new Set(reused.map((r) => r.file)).size;
  const sources = new Map<string, string>();
  for (const r of reused) sources.set(`${r.earlier.shipmentId}/${r.earlier.set}/${r.earlier.folder ?? ""}`, sourceText(r.earlier));
  const first = reused[0]!;
  return (
    `not sent: ${files === 1 ? "1 of its photos is" : `${files} of its photos are`} byte for byte ${files === 1 ? "a photo" : "photos"} of ` +
    `${[...sources.values()].join(", and of ")}: ${first.file} is ${first.earlier.file}${files === 1 ? "" : `, and ${files - 1} more`}; ${REUSED_FIX}`
  );
}

/** Which set the bytes belong to, and what the ledger says of it. */
function sourceText(use: EarlierUse): string {
  if (use.state === "in_this_batch") return `folder ${use.folder} of this run (shipment ${use.shipmentId}, set ${use.set})`;
  return `set ${use.set} of shipment ${use.shipmentId} (${stateText(use)})`;
}

function stateText(use: EarlierUse): string {
  const at = use.at ? ` ${formatTimestamp(use.at)}` : "";
  return use.state === "stored" ? `stored${at}` : `sent${at}, its answer not recorded yet`;
}

/** A reused photo in --json: the file, and where its bytes were sent (or go) too. */
export function reusedJson(r: ReusedPhoto) {
  const e = r.earlier;
  return { file: r.file, earlier: { shipment_id: e.shipmentId, set: e.set, file: e.file, state: e.state, at: e.at ?? null } };
}
