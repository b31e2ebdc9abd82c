// `report upload` flags and arguments, checked before anything is read from disk or sent: one folder
// (`<shipment-id> <folder>`), or a batch (`--batch ROOT` or `--manifest FILE.csv`), never a mix.
import { resolve } from "node:path";
import { REPORT, type ReportSet } from "../contract/index.js";
import { UsageError } from "../errors.js";
import { shellQuote } from "../output/shell.js";
import { previewFormat, type PreviewFormat } from "./contact-sheet.js";
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from "./report-defaults.js";

/** What commander hands over (option values are strings until checked here). */
export interface UploadFlags {
  set?: string;
  batch?: string;
  manifest?: string;
  byOrder?: boolean;
  yes?: boolean;
  fit?: boolean;
  preview?: string;
  concurrency?: string;
  journal?: string;
  /** false with --no-wait. */
  wait?: boolean;
}

export type UploadSource =
  /** `folder` is absolute; `label` is the path as the user gave it. */
  | { kind: "single"; shipmentId: number; folder: string; label: string }
  | { kind: "batch"; root: string }
  | { kind: "manifest"; file: string };

export interface UploadOptions {
  set: ReportSet;
  source: UploadSource;
  byOrder: boolean;
  yes: boolean;
  fit: boolean;
  preview?: { file: string; format: PreviewFormat };
  concurrency: number;
  /** Batch only: where the journal lives (default beside the batch). */
  journal?: string;
  /** Wait for an upload an earlier run left in flight until it can be settled (false with --no-wait). */
  wait: boolean;
}

export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY };

export function parseUploadOptions(args: string[], flags: UploadFlags, cwd: string): UploadOptions {
  const set = parseSet(flags.set);
  const source = parseSource(args, flags, cwd);
  const concurrency = parseConcurrency(flags.concurrency);
  let preview: UploadOptions["preview"];
  if (flags.preview !== undefined) {
    const format = previewFormat(flags.preview);
    if (!format) throw new UsageError(`--preview ${flags.preview}: the file must end in .html or .png`);
    if (format === "png" && source.kind !== "single") {
      throw new UsageError("a .png preview shows one report; for a batch use --preview FILE.html");
    }
    preview = { file: resolve(cwd, flags.preview), format };
  }
  if (flags.journal !== undefined && source.kind === "single") {
    throw new UsageError("--journal belongs to batches (--batch or --manifest); single uploads share one journal in the config folder");
  }
  return {
    set,
    source,
    byOrder: Boolean(flags.byOrder),
    yes: Boolean(flags.yes),
    fit: Boolean(flags.fit),
    preview,
    concurrency,
    journal: flags.journal === undefined ? undefined : resolve(cwd, flags.journal),
    wait: flags.wait !== false,
  };
}

/** The command to run again: the same reports and the flags that change what is sent. */
export function rerunCommand(options: UploadOptions, globals: { profile?: string }): string {
  const s = options.source;
  const parts = ["shipctl", "report", "upload"];
  if (s.kind === "single") parts.push(String(s.shipmentId), shellQuote(s.label));
  else parts.push(s.kind === "batch" ? "--batch" : "--manifest", shellQuote(s.kind === "batch" ? s.root : s.file));
  parts.push("--set", String(options.set));
  if (options.fit) parts.push("--fit");
  if (options.byOrder) parts.push("--by-order", ...(options.yes ? ["--yes"] : []));
  if (s.kind !== "single" && options.concurrency !== DEFAULT_CONCURRENCY) parts.push("--concurrency", String(options.concurrency));
  if (options.journal !== undefined) parts.push("--journal", shellQuote(options.journal));
  if (!options.wait) parts.push("--no-wait");
  if (globals.profile !== undefined) parts.push("--profile", shellQuote(globals.profile));
  return parts.join(" ");
}

function parseSet(value: string | undefined): ReportSet {
  if (value === undefined) {
    throw new UsageError("--set is required: 1 (photos taken before shipping, while Delivered) or 2 (on arrival, while Arrived)");
  }
  const set = REPORT.sets.find((s) => String(s) === value.trim());
  if (!set) throw new UsageError(`--set ${value}: the set is 1 (before shipping) or 2 (on arrival)`);
  return set;
}

function parseConcurrency(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency ${value}: give a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  return n;
}

function parseSource(args: string[], flags: UploadFlags, cwd: string): UploadSource {
  if (flags.batch !== undefined && flags.manifest !== undefined) {
    throw new UsageError("give either --batch ROOT or --manifest FILE.csv, not both");
  }
  if (flags.batch !== undefined || flags.manifest !== undefined) {
    if (args.length > 0) {
      throw new UsageError(`a batch takes its shipments from ${flags.batch !== undefined ? "the folder names" : "the manifest"}: drop the arguments ${args.join(" ")}`);
    }
    return flags.batch !== undefined ? { kind: "batch", root: resolve(cwd, flags.batch) } : { kind: "manifest", file: resolve(cwd, flags.manifest!) };
  }
  if (args.length !== 2) {
    throw new UsageError(
      args.length < 2 ? "give the shipment id and the photo folder: shipctl report upload <shipment-id> <folder> --set 1|2" : `too many arguments: ${args.join(" ")}`,
      { hint: "for many reports at once use --batch ROOT or --manifest FILE.csv" },
    );
  }
  const [idText, folder] = args as [string, string];
  const id = /^\d+$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`shipment id "${idText}" must be a positive whole number`);
  return { kind: "single", shipmentId: id, folder: resolve(cwd, folder), label: folder };
}
