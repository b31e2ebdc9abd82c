// The flags shared by the commands that send items (from a CSV file, flags or a JSON file), checked before anything
// is read, and the command line that resumes a CSV run.
import { UsageError } from "../errors.js";
import { DEFAULT_CONCURRENCY, readConcurrency } from "./concurrency.js";
import { serviceFlags, shellQuote } from "../output/shell-quote.js";

export type CsvFlags = {
  csv?: string;
  /** --encoding: the file's encoding when it is not UTF-8 (csv/encoding.ts). */
  encoding?: string;
  /** --map "Artwork=title,...": the sheet's own names for columns (csv/column-map.ts). */
  map?: string;
  dryRun?: boolean;
  concurrency?: string | number;
  results?: string;
  acceptRecommended?: boolean;
  /** false with --no-verify. */
  verify?: boolean;
  skipInvalid?: boolean;
  /** Send what the ledger says another input already sent (ledger/force-new.ts). */
  forceNew?: boolean;
  /** false with --no-wait: do not wait for requests an earlier run left in flight (ledger/settle.ts). */
  wait?: boolean;
  /** `shipment create --csv`: send rows edited since they were created as updates (shipments/changed-rows.ts). */
  updateChanged?: boolean;
};

/** How the items are sent, whatever they are read from (a CSV file, flags or a JSON file). */
export type SendOptions = ReturnType<typeof sendOptions>;

export interface CsvOptions extends SendOptions {
  csv: string;
  /** The encoding --encoding declared, as TextDecoder names it; undefined for UTF-8 (or UTF-16 with a BOM). */
  encoding?: string;
  /** --map as given. */
  map?: string;
  results?: string;
  /** --update-changed (`shipment create --csv` only): rows edited since they were created are sent as updates. */
  updateChanged?: boolean;
}

export function sendOptions(flags: Omit<CsvFlags, "csv" | "results">) {
  return {
    dryRun: flags.dryRun === true,
    concurrency: readConcurrency(flags.concurrency),
    acceptRecommended: flags.acceptRecommended === true,
    verify: flags.verify !== false,
    skipInvalid: flags.skipInvalid === true,
    wait: flags.wait !== false,
    /** --force-new (ledger/force-new.ts): also past a look at the service (shipments/look/). */
    forceNew: flags.forceNew === true,
  };
}

export function csvOptions(flags: CsvFlags): CsvOptions {
  if (flags.csv === undefined || flags.csv.trim() === "") throw new UsageError("--csv needs a file (or - for stdin)");
  const send = sendOptions(flags);
  if (flags.results !== undefined && flags.results.trim() === "") throw new UsageError("--results needs a file name");
  const encoding = flags.encoding === undefined ? undefined : declaredEncoding(flags.encoding);
  if (flags.updateChanged === true && send.forceNew) {
    throw new UsageError("--update-changed and --force-new say opposite things of a row edited since it was created", {
      hint: "Give --update-changed to update the shipment it created, or --force-new to create a new one (--dry-run shows which rows).",
    });
  }
  const updateChanged = flags.updateChanged === true ? { updateChanged: true } : {};
  return { csv: flags.csv, ...(encoding === undefined ? {} : { encoding }), ...(flags.map === undefined ? {} : { map: flags.map }), ...send, results: flags.results, ...updateChanged };
}

/** The flags of a rerun command (CSV or items) that change what is sent and how. */
export function sendFlags(options: SendOptions): string[] {
  const parts: string[] = [];
  if (options.concurrency !== DEFAULT_CONCURRENCY) parts.push("--concurrency", String(options.concurrency));
  if (options.acceptRecommended) parts.push("--accept-recommended");
  if (!options.verify) parts.push("--no-verify");
  if (options.skipInvalid) parts.push("--skip-invalid");
  // Stopped before its first request was recorded, a run of a copy would be refused again without it.
  if (options.forceNew) parts.push("--force-new");
  if (!options.wait) parts.push("--no-wait");
  return parts;
}

/** The command to run again to resume: the same input and the flags that change what is sent. */
export function resumeCommand(command: string, options: CsvOptions, globals: Parameters<typeof serviceFlags>[0]): string {
  const parts = ["shipctl", command, "--csv", shellQuote(options.csv)];
  if (options.encoding !== undefined) parts.push("--encoding", shellQuote(options.encoding));
  if (options.map !== undefined) parts.push("--map", shellQuote(options.map));
  if (options.results !== undefined) parts.push("--results", shellQuote(options.results));
  parts.push(...sendFlags(options));
  if (options.updateChanged === true) parts.push("--update-changed");
  parts.push(...serviceFlags(globals));
  const line = parts.join(" ");
  return options.csv === "-" ? `${line} < (the same input)` : line;
}

/**
 * The encoding a person named with --encoding, as TextDecoder knows it ("latin1" is "windows-1252", as the WHATWG
 * Encoding Standard says). A name it does not know is refused: shipctl never guesses an encoding.
 * Here, not in csv/encoding.ts, which reads files: a verb's wiring imports this file, and its --help then loads no
 * stream module.
 */
export function declaredEncoding(label: string): string {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    throw new UsageError(`--encoding ${JSON.stringify(label)} is not an encoding shipctl can read`, {
      hint: "Give a name such as windows-1252 (Excel for Windows' \"CSV (Comma delimited)\" in Western Europe and the Americas), latin1, iso-8859-15, shift_jis or utf-8.",
    });
  }
}
