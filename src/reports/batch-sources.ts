// Which folders a batch uploads, and for which shipments: `--batch ROOT` (one folder per shipment, named by its id:
// "1234", or "1234 Smith bronze" for people who label folders) or `--manifest FILE.csv` (shipment_id,folder rows,
// folders relative to the manifest). Every problem is collected, so the operator fixes the list in one go.
import { readdir, readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isIgnoredName, naturalCompare } from "./side-names.js";
import type { Problem } from "./report-types.js";
import { tooLargeDigits } from "../contract/limits.js";

export interface ReportTarget {
  shipmentId: number;
  /** Absolute path of the report folder. */
  folder: string;
  /** How to name it to the user: the folder name under ROOT, or the manifest's folder cell. */
  label: string;
}

export interface TargetList {
  targets: ReportTarget[];
  problems: Problem[];
}

const ID_FOLDER = /^(\d+)(?:[\s_-].*)?$/;

export async function targetsFromRoot(root: string): Promise<TargetList> {
  const abs = resolve(root);
  const problems: Problem[] = [];
  let dirents;
  try {
    dirents = await readdir(abs, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const problem = code === "ENOENT" ? "no such folder" : code === "ENOTDIR" ? "not a folder" : `cannot be read (${code})`;
    return { targets: [], problems: [{ file: root, problem, fix: "give the folder that holds one folder per shipment" }] };
  }
  const targets: ReportTarget[] = [];
  const seen = new Map<number, string>();
  for (const d of dirents.sort((a, b) => naturalCompare(a.name, b.name))) {
    if (isIgnoredName(d.name) || !(d.isDirectory() || d.isSymbolicLink())) continue;
    const match = ID_FOLDER.exec(d.name);
    const id = match ? Number(match[1]) : NaN;
    if (!match || !Number.isSafeInteger(id) || id < 1) {
      problems.push({
        file: `${d.name}/`,
        problem: "the folder name does not start with a shipment id",
        fix: "rename it to the shipment id (e.g. 1234 or 1234-smith), or list the folders in a --manifest",
      });
      continue;
    }
    const other = seen.get(id);
    if (other) {
      problems.push({ file: `${other}/, ${d.name}/`, problem: `two folders for shipment ${id}`, fix: "keep one folder per shipment" });
      continue;
    }
    seen.set(id, d.name);
    targets.push({ shipmentId: id, folder: join(abs, d.name), label: d.name });
  }
  if (targets.length === 0 && problems.length === 0) {
    problems.push({ file: root, problem: "no shipment folders inside", fix: "put each report in a folder named by its shipment id (ROOT/1234/box/front.jpg ...)" });
  }
  return { targets, problems };
}

/** Header names compared without case, spaces, dashes or underscores. */
const headerKey = (s: string) => s.trim().toLowerCase().replace(/[\s_-]+/g, "");

export async function targetsFromManifest(file: string): Promise<TargetList> {
  const abs = resolve(file);
  const where = (row: number) => `${file} row ${row}`;
  let bytes: Buffer;
  try {
    bytes = await readFile(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { targets: [], problems: [{ file, problem: code === "ENOENT" ? "the manifest does not exist" : `cannot read the manifest (${code})`, fix: "check the path" }] };
  }
  if (bytes.includes(0)) {
    return { targets: [], problems: [{ file, problem: "not a UTF-8 text file (it holds NUL bytes; UTF-16?)", fix: "save it as CSV UTF-8" }] };
  }
  // The CSV parser is loaded for manifests only: a --batch folder never needs it.
  const { parse } = await import("csv-parse/sync");
  const text = bytes.toString("utf8");
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  const delimiter = [",", ";", "\t"].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best), ",");
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof records;
  } catch (e) {
    return { targets: [], problems: [{ file, problem: `not readable as CSV: ${(e as Error).message}`, fix: "save it as CSV with shipment_id and folder columns" }] };
  }
  const [header, ...rows] = records;
  const keys = (header?.record ?? []).map(headerKey);
  const idCol = keys.indexOf("shipmentid");
  const folderCol = keys.indexOf("folder");
  if (idCol < 0 || folderCol < 0) {
    const found = header ? header.record.join(", ") : "nothing";
    return {
      targets: [],
      problems: [{ file: where(1), problem: `the header must name the columns shipment_id and folder (found: ${found})`, fix: "add a first row: shipment_id,folder" }],
    };
  }
  const base = dirname(abs);
  const problems: Problem[] = [];
  const targets: ReportTarget[] = [];
  const seen = new Map<number, number>();
  for (const { record, info } of rows) {
    // A row whose cells are all empty (a spreadsheet saves one as ",") is skipped, as in every CSV shipctl reads.
    if (record.every((cell) => cell === "")) continue;
    // info.lines is where the record ends; a quoted cell with line breaks started it earlier.
    const row = info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
    const idText = record[idCol] ?? "";
    const folder = record[folderCol] ?? "";
    const id = /^\d+$/.test(idText) ? Number(idText) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      const problem = tooLargeDigits(idText) ? `shipment_id "${idText}" is too large to be a shipment id` : `shipment_id "${idText}" is not a shipment id`;
      problems.push({ file: where(row), problem, fix: "give the shipment's id, a positive whole number" });
      continue;
    }
    if (folder === "") {
      problems.push({ file: where(row), problem: "the folder cell is empty", fix: "give the report folder's path (relative to the manifest, or absolute)" });
      continue;
    }
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      problems.push({ file: where(row), problem: `shipment ${id} is listed again (first on row ${earlier})`, fix: "list each shipment once" });
      continue;
    }
    seen.set(id, row);
    targets.push({ shipmentId: id, folder: isAbsolute(folder) ? folder : join(base, folder), label: folder });
  }
  if (targets.length === 0 && problems.length === 0) {
    problems.push({ file, problem: "no reports listed", fix: "add one row per shipment: shipment_id,folder" });
  }
  return { targets, problems };
}
