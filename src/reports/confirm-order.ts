// --by-order takes sides from the order of the file names, which no check can verify: show the side -> file table
// and have a person confirm it (a prompt), or require --yes where nobody can answer.
import type { Deps } from "../deps.js";
import { CancelledError, UsageError } from "../errors.js";
import type { PreparedReport } from "./prepare-reports.js";

export async function confirmByOrder(deps: Deps, reports: readonly PreparedReport[], yes: boolean): Promise<void> {
  const { renderTable } = await import("../output/table.js");
  // What the prompt, or the error that asks for --yes, is about: kept with --quiet unless --yes settled it.
  const show = yes ? deps.io.err : deps.io.alert;
  for (const r of reports) {
    show(`Sides taken from the file order in ${deps.theme.err.bold(r.target.label)} (shipment ${r.target.shipmentId}):\n`);
    const table = renderTable(
      [
        { header: "GROUP", value: (p: PreparedReport["photos"][number]) => p.group },
        { header: "SIDE", value: (p) => p.side },
        { header: "FILE", value: (p) => p.file },
      ],
      r.photos,
      { theme: deps.theme.err },
    );
    show(`${table.trimEnd().replace(/^/gm, "  ")}\n`);
  }
  if (yes) return;
  if (!deps.canPrompt()) {
    throw new UsageError("--by-order takes each side from the file order: check the table above, then pass --yes to confirm it", {
      hint: "or rename the photos by side (box/front.jpg ...) and drop --by-order",
    });
  }
  const what = reports.length === 1 ? "these sides" : `the sides of these ${reports.length} reports`;
  if (!(await deps.prompter.confirm(`Upload with ${what}?`, { default: false }))) {
    throw new CancelledError("cancelled: nothing was sent");
  }
}
