// --preview: write the contact sheet and stop. Nothing is sent, so the operator can look first and then run the
// same command without --preview.
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import type { ReportSet } from "../contract/index.js";
import { printJson } from "../output/json.js";
import { writePreview } from "./contact-sheet.js";
import type { PreparedReport } from "./prepare-reports.js";

export async function previewOnly(deps: Deps, file: string, reports: readonly PreparedReport[], set: ReportSet): Promise<void> {
  const sheets = reports.map((r) => ({ title: `Shipment ${r.target.shipmentId} · set ${set}`, folder: r.target.folder, photos: r.photos }));
  try {
    await writePreview(file, sheets);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw err;
    throw new UsageError(`--preview ${file}: cannot write it (${code})`, { hint: "give a path in a folder you can write to", cause: err });
  }
  const what = reports.length === 1 ? "12 photos in upload order" : `${reports.length} reports, 12 photos each in upload order`;
  deps.io.alert(`Preview written to ${file} (${what}); nothing was sent. Run the same command without --preview to upload.\n`);
  if (deps.globals.json) {
    printJson(deps.io, { sent: false, preview: file, reports: reports.map((r) => ({ shipment_id: r.target.shipmentId, folder: r.target.label })) });
  }
}

/**
 * The folder the sheet goes to, checked before any photo is checked or fitted: a typing mistake in the path is named
 * at once (exit 2), not found after minutes of fitting.
 */
export async function checkPreviewFolder(file: string): Promise<void> {
  const folder = dirname(file);
  const info = await stat(folder).catch((err: NodeJS.ErrnoException) => err);
  if (info instanceof Error) {
    const why = info.code === "ENOENT" || info.code === "ENOTDIR" ? "does not exist" : `cannot be read (${info.code ?? info.message})`;
    throw new UsageError(`--preview ${file}: the folder ${folder} ${why}`, { hint: "create the folder, or give a path in one that exists" });
  }
  if (!info.isDirectory()) throw new UsageError(`--preview ${file}: ${folder} is not a folder`);
}
