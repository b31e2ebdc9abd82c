// What a `report upload` run is asked to do, its paths resolved (the command line is read and checked in
// commands/report/report-upload.ts): one folder, or a batch (`--batch ROOT` or `--manifest FILE.csv`). Light on
// purpose: the wiring imports it, so `--help` loads nothing heavy.
import { extname } from "node:path";
import type { ReportSet } from "../contract/limits.js";
import type { GlobalOptions } from "../deps.js";
import { serviceFlags, shellPath, shellQuote } from "../output/shell-quote.js";

/** Uploads in flight in a batch: two keeps a slow link busy without starving a shared connection. */
export const DEFAULT_UPLOADS = 2;

/** What --preview writes, judged by the file's name: an HTML contact sheet, or one PNG image. */
export type PreviewFormat = "html" | "png";

export function previewFormat(file: string): PreviewFormat | undefined {
  const ext = extname(file).toLowerCase();
  return ext === ".html" || ext === ".htm" ? "html" : ext === ".png" ? "png" : undefined;
}

export type UploadSource =
  /** `folder` is absolute; `label` is the path as the user gave it. */
  | { kind: "single"; shipmentId: number; folder: string; label: string }
  | { kind: "batch"; root: string }
  | { kind: "manifest"; file: string };

export interface UploadPlan {
  set: ReportSet;
  source: UploadSource;
  byOrder: boolean;
  yes: boolean;
  fit: boolean;
  /** --strip-location (or the profile's stripLocation): send copies without the GPS position. */
  stripLocation?: boolean;
  preview?: { file: string; format: PreviewFormat };
  concurrency: number;
  /** Wait for an upload an earlier run left in flight until it can be settled (false with --no-wait). */
  wait: boolean;
  /** --allow-reused: send a set whose photos another set sent (reused-photos.ts), instead of refusing it. */
  allowReused: boolean;
}

/** The command to run again: the same reports and service, and the flags that change what is sent. */
export function rerunCommand(options: UploadPlan, globals: Pick<GlobalOptions, "profile" | "baseUrl">): string {
  const s = options.source;
  const parts = ["shipctl", "report", "upload"];
  if (s.kind === "single") parts.push(String(s.shipmentId), shellPath(s.label));
  else parts.push(s.kind === "batch" ? "--batch" : "--manifest", shellQuote(s.kind === "batch" ? s.root : s.file));
  parts.push("--set", String(options.set));
  if (options.fit) parts.push("--fit");
  if (options.stripLocation) parts.push("--strip-location");
  if (options.byOrder) parts.push("--by-order", ...(options.yes ? ["--yes"] : []));
  if (s.kind !== "single" && options.concurrency !== DEFAULT_UPLOADS) parts.push("--concurrency", String(options.concurrency));
  if (!options.wait) parts.push("--no-wait");
  if (options.allowReused) parts.push("--allow-reused");
  parts.push(...serviceFlags(globals));
  return parts.join(" ");
}
