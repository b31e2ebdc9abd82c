// Which column mapping a CSV run reads its file with: --map (refused when it names a header the file lacks, else saved
// for the file's header shape, except in a dry run, which writes nothing), else the one saved for that shape in the
// profile, else none; at a terminal, the columns still missing are asked for (column-prompt.ts) and the answers saved
// with it, in the store `shipctl csv map` uses. Said on stderr every run.
import type { Deps } from "../deps.js";
import { openConfigStore } from "../config/store.js";
import { saveColumnMap, savedColumnMap } from "../config/column-maps.js";
import { UsageError } from "../errors.js";
import { openCsv, readCsv } from "../csv/csv-reader.js";
import type { CsvSource } from "../csv/csv-source.js";
import { layoutFor, type BatchKind } from "../csv/columns.js";
import { columnMapJson, describeColumnMap, headerShape, parseColumnMap, type ColumnMap, type ColumnMapEntry } from "../csv/column-map.js";
import { normaliseHeader } from "../csv/headers.js";
import { askForMissingColumns } from "./column-prompt.js";
import { serviceFlags, shellPath } from "../output/shell-quote.js";

const KINDS: readonly BatchKind[] = ["shipment-create", "shipment-update", "address-verify", "address-add", "address-update"];
/** Every column some CSV command reads: a mapping to anything else is a typo, refused before it is saved. */
const ANY_COLUMN = new Set(KINDS.flatMap((k) => layoutFor(k).columns));

export async function columnMapFor(deps: Deps, source: CsvSource, profile: string, kind: BatchKind, options: { map?: string; dryRun: boolean }): Promise<ColumnMap | undefined> {
  const entries = options.map === undefined ? undefined : parseColumnMap(options.map);
  for (const e of entries ?? []) {
    if (!ANY_COLUMN.has(e.column)) throw new UsageError(`--map reads "${e.header}" as ${e.column}, which is no column of shipctl's`, { hint: "Run `shipctl shipment template` to see the columns." });
  }
  const header = await readCsv(source, undefined, async (csv) => csv.header);
  // A file whose header cannot be read is refused by the run's first pass, with why.
  if (header === undefined) return entries && { entries, origin: "--map" };
  const shape = headerShape(header);
  if (entries) refuseAbsent(entries, header, source.name);
  const store = await openConfigStore(deps.env);
  const saved = entries === undefined ? savedColumnMap(store, profile, shape) : undefined;
  let map: ColumnMap | undefined = entries ? { entries, origin: "--map" } : saved && { entries: saved, origin: "saved" };
  // Asked only where a person can answer, and not under --json, which a script reads: there the run is refused,
  // naming the likeliest headers and the --map that reads them. A file typed at the terminal (--csv -) has used up
  // its stdin.
  if (deps.canPrompt() && !deps.globals.json && !source.stdin) {
    const answered = await askForMissingColumns(deps.prompter, header, layoutFor(kind), source.name, map?.entries ?? []);
    if (answered !== undefined) map = { entries: answered, origin: "prompt" };
  }
  if (map === undefined) return undefined;
  if (map.origin === "saved") {
    // Quoted for the shell, and in the run's --profile, where the mapping was saved.
    const file = source.stdin ? "FILE" : shellPath(source.name);
    const forget = ["shipctl csv map", file, "--forget", ...serviceFlags({ profile: deps.globals.profile })].join(" ");
    deps.io.err(`Columns: ${describeColumnMap(map)} (saved for this header in profile "${profile}"; \`${forget}\` forgets it)\n`);
    return map;
  }
  const where = options.dryRun ? "not saved: a dry run writes nothing" : `saved for files with this header in profile "${profile}"`;
  if (!options.dryRun) await saveColumnMap(store, profile, shape, map.entries);
  deps.io.err(`Columns: ${describeColumnMap(map)} (${map.origin === "prompt" ? "your answers" : "--map"}; ${where})\n`);
  return map;
}

/** Pairs naming a header the file does not have are refused before anything is saved (--map and --set alike). */
function refuseAbsent(entries: readonly ColumnMapEntry[], header: readonly string[], file: string): void {
  const names = new Set(headerShape(header));
  const absent = entries.filter((e) => !names.has(normaliseHeader(e.header))).map((e) => `"${e.header}"`);
  if (absent.length === 0) return;
  throw new UsageError(`${file} has no column ${absent.join(", ")}`, { hint: `Its headers: ${header.join(", ")}.` });
}

export interface CsvMapRequest {
  file: string;
  /** --set PAIRS: save this mapping for the file's header shape. */
  set?: string;
  /** --forget: remove the mapping saved for it. */
  forget: boolean;
}

/** `shipctl csv map FILE [--set PAIRS | --forget]`: show, set or forget the mapping saved for FILE's header shape. */
export async function runCsvMap(deps: Deps, request: CsvMapRequest): Promise<void> {
  const { openConfigContext } = await import("../config/config-context.js");
  const { forgetColumnMap } = await import("../config/column-maps.js");
  const { openSource } = await import("../csv/csv-source.js");
  const { store, settings } = await openConfigContext(deps);
  const profile = settings.profile.value;
  const source = await openSource(request.file, deps.cwd, deps.io.stdin, "csv map");
  try {
    const header = await openCsv(source.open(), source.name).then(async (csv) => (await csv.close(), csv.header));
    const shape = headerShape(header);
    let entries = savedColumnMap(store, profile, shape);
    let said: string;
    if (request.set !== undefined) {
      entries = parseColumnMap(request.set, "--set");
      refuseAbsent(entries, header, source.name);
      for (const e of entries) if (!ANY_COLUMN.has(e.column)) throw new UsageError(`--set reads "${e.header}" as ${e.column}, which is no column of shipctl's`);
      await saveColumnMap(store, profile, shape, entries);
      said = `saved for files with this header in profile "${profile}"`;
    } else if (request.forget) {
      said = (await forgetColumnMap(store, profile, shape)) ? `forgotten in profile "${profile}"` : `none saved in profile "${profile}"`;
      entries = undefined;
    } else said = entries === undefined ? `none saved in profile "${profile}"` : `saved in profile "${profile}"`;
    const map: ColumnMap | undefined = entries && { entries, origin: "saved" };
    if (deps.globals.json) {
      deps.io.out(`${JSON.stringify({ file: source.name, profile, headers: header, columns: map ? columnMapJson(map) : null }, null, 2)}\n`);
    } else if (map) deps.io.out(`${map.entries.map((e) => `${e.header}\t${e.column}`).join("\n")}\n`);
    deps.io.err(`Column mapping for ${source.name}: ${said}\n`);
  } finally {
    await source.dispose();
  }
}
