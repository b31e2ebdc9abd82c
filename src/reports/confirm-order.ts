// --by-order takes sides from the order of the file names, which no check can verify: show the side -> file table
// and have a person confirm it (a prompt), or require --yes where nobody can answer. In a batch, a folder whose names
// run as one camera would number them (same prefix and type, consecutive numbers) is shown in one line: fifty
// 14-line tables before one question hide the few folders that need a look, which keep their full table.
import { REPORT } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { CancelledError, UsageError } from "../errors.js";
import type { Photo } from "./report-types.js";
import type { PreparedReport } from "./prepare-reports.js";

export async function confirmByOrder(deps: Deps, reports: readonly PreparedReport[], yes: boolean): Promise<void> {
  const { renderTable } = await import("../output/table.js");
  // What the prompt, or the error that asks for --yes, is about: kept with --quiet unless --yes settled it.
  const show = yes ? deps.io.err : deps.io.alert;
  const t = deps.theme.err;
  const plain = reports.length > 1 ? reports.filter((r) => !needsALook(r)) : [];
  if (plain.length > 0) {
    show(`Sides taken from the file order, ${plain.length} folder${plain.length === 1 ? "" : "s"} numbered in sequence (first and last file of each group):\n`);
    for (const r of plain) show(`  ${t.bold(r.target.label)} (shipment ${r.target.shipmentId}): ${summaryLine(r)}\n`);
  }
  for (const r of reports) {
    if (plain.includes(r)) continue;
    const why = reports.length > 1 ? ` (${needsALook(r)})` : "";
    show(`Sides taken from the file order in ${t.bold(r.target.label)} (shipment ${r.target.shipmentId})${why}:\n`);
    const table = renderTable(
      [
        { header: "GROUP", value: (p: Photo) => p.group },
        { header: "SIDE", value: (p) => p.side },
        { header: "FILE", value: (p) => p.file },
      ],
      r.photos,
      { theme: t },
    );
    show(`${table.trimEnd().replace(/^/gm, "  ")}\n`);
  }
  if (yes) return;
  const preview = "--preview sheet.html";
  if (!deps.canPrompt()) {
    throw new UsageError("--by-order takes each side from the file order: check the sides above, then pass --yes to confirm them", {
      hint: `to see the photos with their sides first, run the same command with ${preview} (nothing is sent); or rename the photos by side (box/front.jpg ...) and drop --by-order`,
    });
  }
  const what = reports.length === 1 ? "these sides" : `the sides of these ${reports.length} reports`;
  show(`To see the photos with their sides first, answer No and run the same command with ${preview} (nothing is sent).\n`);
  if (!(await deps.prompter.confirm(`Upload with ${what}?`, { default: false }))) {
    throw new CancelledError("cancelled: nothing was sent");
  }
}

/** Why a folder's full table is shown in a batch, or undefined when its names run in one numbered sequence. */
export function needsALook(report: PreparedReport): string | undefined {
  if (report.warnings.length > 0) return "it has notes";
  // Box and art in one folder (a camera dump) are one sequence; in box/ and art/, each group is its own.
  const flat = report.photos.every((p) => !p.file.includes("/"));
  const runs = flat ? [report.photos] : REPORT.groups.map((group) => report.photos.filter((p) => p.group === group));
  return runs.every(inSequence) ? undefined : "its file names do not run in one numbered sequence";
}

const NUMBERED = /^(.*?)(\d+)(\.[^.]*)?$/;

/** IMG_0007.JPG, IMG_0008.JPG, ...: one prefix, one extension, each number one more than the last. */
function inSequence(photos: readonly Photo[]): boolean {
  const parts = photos.map((p) => NUMBERED.exec(p.file.slice(p.file.lastIndexOf("/") + 1)));
  if (parts.some((m) => m === null)) return false;
  const [first] = parts as RegExpExecArray[];
  return (parts as RegExpExecArray[]).every(
    (m, i) => m[1]!.toLowerCase() === first![1]!.toLowerCase() && (m[3] ?? "").toLowerCase() === (first![3] ?? "").toLowerCase() && Number(m[2]) === Number(first![2]) + i,
  );
}

/** "box IMG_0001.JPG … IMG_0006.JPG, art IMG_0007.JPG … IMG_0012.JPG" */
function summaryLine(report: PreparedReport): string {
  const parts: string[] = [];
  for (const group of new Set(report.photos.map((p) => p.group))) {
    const files = report.photos.filter((p) => p.group === group).map((p) => p.file);
    parts.push(`${group} ${files[0]} … ${files[files.length - 1]}`);
  }
  return parts.join(", ");
}
