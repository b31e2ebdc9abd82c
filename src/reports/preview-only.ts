// --preview: write the contact sheet and stop. Nothing is sent, so the operator can look first and then run the
// same command without --preview.
import type { Deps } from "../deps.js";
import type { ReportSet } from "../contract/index.js";
import { printJson } from "../output/json.js";
import { writePreview } from "./contact-sheet.js";
import type { PreparedReport } from "./prepare-reports.js";

export async function previewOnly(deps: Deps, file: string, reports: readonly PreparedReport[], set: ReportSet): Promise<void> {
  const sheets = reports.map((r) => ({ title: `Shipment ${r.target.shipmentId} · set ${set}`, folder: r.target.folder, photos: r.photos }));
  await writePreview(file, sheets);
  const what = reports.length === 1 ? "12 photos in upload order" : `${reports.length} reports, 12 photos each in upload order`;
  deps.io.alert(`Preview written to ${file} (${what}); nothing was sent. Run the same command without --preview to upload.\n`);
  if (deps.globals.json) {
    printJson(deps.io, { sent: false, preview: file, reports: reports.map((r) => ({ shipment_id: r.target.shipmentId, folder: r.target.label })) });
  }
}
