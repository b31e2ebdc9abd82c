// Where report uploads keep their ledger book (src/ledger/book.ts), and opening it. One row per report, keyed
// `<shipment id>/<set>`:
//   --batch ROOT          ROOT/.shipctl-report-ledger.jsonl (hidden: batch discovery skips it)
//   --manifest FILE.csv   FILE.csv.shipctl-report-ledger.jsonl, beside the manifest
//   --journal FILE        FILE
//   one folder            <config folder>/journals/reports.shipctl-ledger.jsonl, shared by every single upload
// shipctl 0.1 kept a batch's record in ROOT/.shipctl-report-journal.json (FILE.csv.shipctl-report-journal.json beside
// a manifest, or --journal FILE in that format): the book reads it when it has no file of its own yet, migrates it
// (uploads it left "sending" become in flight, settled by reading the shipment before anything is sent), and keeps
// it as a backup (.v1.bak). Single uploads kept none.
import { basename, dirname, join } from "node:path";
import { configDir } from "../config/paths.js";
import type { ReportSet } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { Book } from "../ledger/book.js";
import { inputLocks } from "../ledger/input-identity.js";
import { settleWindowOf } from "../ledger/settle-window.js";
import type { UploadSource } from "./upload-plan.js";

export const BOOK_SUFFIX = ".shipctl-report-ledger.jsonl";
const LEGACY_SUFFIX = ".shipctl-report-journal.json";
const SINGLE_BOOK = "reports.shipctl-ledger.jsonl";

export interface BookPlace {
  path: string;
  /** The file shipctl 0.1 would have written for the same run, read when `path` does not exist yet. */
  legacyPath?: string;
}

/** The book every single-folder upload shares. */
export function singleReportBookPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), "journals", SINGLE_BOOK);
}

/** The book of a run: `journal` is --journal (batches only). */
export function reportBookPlace(source: UploadSource, journal: string | undefined, env: NodeJS.ProcessEnv): BookPlace {
  if (source.kind === "single") return { path: singleReportBookPath(env) };
  // A --journal file is read in whichever format it holds (a 0.1 journal there is migrated in place).
  if (journal !== undefined) return { path: journal };
  if (source.kind === "batch") return { path: join(source.root, BOOK_SUFFIX), legacyPath: join(source.root, LEGACY_SUFFIX) };
  const beside = (suffix: string) => join(dirname(source.file), `${basename(source.file)}${suffix}`);
  return { path: beside(BOOK_SUFFIX), legacyPath: beside(LEGACY_SUFFIX) };
}

export function reportKey(shipmentId: number, set: ReportSet): string {
  return `${shipmentId}/${set}`;
}

/** The shipment and set of a row key; undefined for a key that is not a report's. */
export function parseReportKey(key: string): { shipmentId: number; set: ReportSet } | undefined {
  const m = /^(\d+)\/([12])$/.exec(key);
  return m ? { shipmentId: Number(m[1]), set: Number(m[2]) as ReportSet } : undefined;
}

/**
 * Opens the run's book, locked against other runs: the book's own lock, and for a manifest the manifest's identity
 * (the same file under another name, or a copy, would otherwise get a book of its own). A batch root needs none:
 * its book is inside it, the same file under every name of the folder.
 */
export async function openReportBook(deps: Deps, source: UploadSource, journal: string | undefined): Promise<Book> {
  const connection = await deps.connection();
  const place = reportBookPlace(source, journal, deps.env);
  const locks = source.kind === "manifest" ? await inputLocks("report-upload", { name: source.file, path: source.file, stdin: false }, deps.env) : [];
  return Book.open(place.path, {
    kind: "report-upload",
    source: source.kind === "single" ? "report upload" : source.kind === "batch" ? source.root : source.file,
    target: { baseUrl: connection.baseUrl, profile: connection.profile, token: connection.token },
    window: await settleWindowOf(connection, deps.env),
    locks,
    what: source.kind === "single" ? `the report uploads' journal ${place.path}` : undefined,
    legacyPath: place.legacyPath,
  });
}
