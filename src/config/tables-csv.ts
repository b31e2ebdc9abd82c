// Reads a Country or Service table from CSV, the format a person can make in a spreadsheet:
//   countries: id, alpha2, alpha3, name[, aliases separated by |]
//   services:  id, name[, aliases separated by |]
// A header row is optional; with one, columns may come in any order. Comma, semicolon and tab delimiters are
// detected. Every row is checked and all problems are reported at once by row number, because fixing a file one
// error per run is miserable. Duplicates are errors: an ambiguous table would map a name to the wrong integer.
import { UsageError, messageOf } from "../errors.js";
import { tableKey, tooLargeDigits, type CountryEntry, type ServiceEntry } from "../contract/index.js";

export type TableKind = "countries" | "services";

const COLUMNS: Record<TableKind, { required: string[]; optional: string[] }> = {
  countries: { required: ["id", "alpha2", "alpha3", "name"], optional: ["aliases"] },
  services: { required: ["id", "name"], optional: ["aliases"] },
};

const MAX_NAME = 100;
const MAX_LISTED_ERRORS = 20;

interface Row {
  line: number;
  cells: Record<string, string>;
}

export function columnsText(kind: TableKind): string {
  const { required, optional } = COLUMNS[kind];
  return `${required.join(", ")}[, ${optional.join(", ")} separated by |]`;
}

export async function parseCountriesCsv(text: string, file: string): Promise<CountryEntry[]> {
  return parseTable("countries", text, file, (cells, line, errors) => {
    const alpha2 = parseCode(cells.alpha2!, 2, "alpha2", line, errors);
    const alpha3 = parseCode(cells.alpha3!, 3, "alpha3", line, errors);
    return alpha2 && alpha3 ? { alpha2, alpha3 } : undefined;
  });
}

export async function parseServicesCsv(text: string, file: string): Promise<ServiceEntry[]> {
  return parseTable("services", text, file, () => ({}));
}

/** Every row checked (id, the kind's codes, name, aliases, in column order), then every claim of an id, code or name. */
async function parseTable<C extends Record<string, string>>(
  kind: TableKind,
  text: string,
  file: string,
  codesOf: (cells: Record<string, string>, line: number, errors: Problems) => C | undefined,
): Promise<Array<{ id: number; name: string; aliases?: string[] } & C>> {
  const errors = new Problems();
  const rows = await readRows(kind, text, file, errors);
  const seen = new Seen(errors);
  const entries: Array<{ id: number; name: string; aliases?: string[] } & C> = [];
  for (const { line, cells } of rows) {
    const before = errors.count;
    const id = parseId(cells.id!, line, errors);
    const codes = codesOf(cells, line, errors);
    const name = parseName(cells.name!, line, errors);
    const aliases = parseAliases(cells.aliases, line, errors);
    if (errors.count > before) continue;
    seen.claim("id", String(id), String(id), line);
    for (const [column, code] of Object.entries(codes!)) seen.claim("code", code, `${column} "${code}"`, line);
    for (const n of [name!, ...aliases]) seen.claim("name", tableKey(n), `name "${n}"`, line);
    entries.push({ id: id!, ...codes!, name: name!, ...(aliases.length ? { aliases } : {}) });
  }
  errors.throwIfAny(file, kind);
  return entries;
}

/** Rows with the right number of columns, keyed by column name; wrong counts go into `problems`. */
async function readRows(kind: TableKind, text: string, file: string, problems: Problems): Promise<Row[]> {
  const { parse } = await import("csv-parse/sync");
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, {
      bom: true,
      delimiter: guessDelimiter(text),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (e) {
    throw new UsageError(`${file} is not readable as CSV: ${messageOf(e)}`, {
      hint: `expected columns: ${columnsText(kind)}`,
    });
  }
  const all = [...COLUMNS[kind].required, ...COLUMNS[kind].optional];
  let order = all;
  let body = records;
  // Spreadsheets export empty cells to the right of the table (a column once formatted): not columns of it.
  const head = records[0]?.record ?? [];
  const first = head.slice(0, head.findLastIndex((cell) => cell !== "") + 1).map(columnKey);
  // A header row is one whose cells are column names (any order); a data row starts with an integer id.
  if (first.includes("id") && first.some((h) => h !== "id" && all.includes(h))) {
    order = first;
    const unknown = order.filter((h) => !all.includes(h));
    const missing = COLUMNS[kind].required.filter((h) => !order.includes(h));
    if (unknown.length || missing.length) {
      const parts = [
        ...(unknown.length ? [`unknown column(s) ${unknown.join(", ")}`] : []),
        ...(missing.length ? [`missing column(s) ${missing.join(", ")}`] : []),
      ];
      throw new UsageError(`${file}, header row: ${parts.join("; ")}`, { hint: `expected columns: ${columnsText(kind)}` });
    }
    body = records.slice(1);
  }
  // A row whose cells are all empty (a spreadsheet saves one as ",") is skipped, as in every CSV shipctl reads.
  body = body.filter(({ record }) => record.some((cell) => cell !== ""));
  if (body.length === 0) {
    throw new UsageError(`${file} holds no ${kind}`, { hint: `one row per entry, columns: ${columnsText(kind)}` });
  }
  // Optional columns may be left off the end of a row, but not from the middle.
  const min = Math.max(...COLUMNS[kind].required.map((h) => order.indexOf(h))) + 1;
  const max = order.length;
  const rows: Row[] = [];
  for (const { record, info } of body) {
    while (record.length > max && record[record.length - 1] === "") record.pop();
    if (record.length < min || record.length > max) {
      const expected = min === max ? `${max}` : `${min} or ${max}`;
      problems.add(info.lines, `has ${record.length} column(s); expected ${expected} (${columnsText(kind)})`);
      continue;
    }
    rows.push({ line: info.lines, cells: Object.fromEntries(order.map((h, i) => [h, record[i] ?? ""])) });
  }
  return rows;
}

function columnKey(header: string): string {
  return header.toLowerCase().replace(/[\s_-]/g, "");
}

/** Comma, semicolon (spreadsheets in many locales) or tab: whichever the first line has most of, outside quotes. */
export function guessDelimiter(text: string): string {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const unquoted = firstLine.replace(/"[^"]*"/g, "");
  const counts = [",", ";", "\t"].map((d) => [d, unquoted.split(d).length - 1] as const);
  const [best, count] = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return count > 0 ? best : ",";
}

function parseId(text: string, line: number, errors: Problems): number | undefined {
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    errors.add(line, `id ${text === "" ? "is empty" : tooLargeDigits(text) ? `"${text}" is too large` : `"${text}" is not a positive whole number`}`);
    return undefined;
  }
  return Number(text);
}

function parseCode(text: string, length: number, column: string, line: number, errors: Problems): string | undefined {
  if (!new RegExp(`^[A-Za-z]{${length}}$`).test(text)) {
    errors.add(line, `${column} "${text}" must be ${length} letters (ISO 3166-1 ${column})`);
    return undefined;
  }
  return text.toUpperCase();
}

function parseName(text: string, line: number, errors: Problems): string | undefined {
  if (text === "") errors.add(line, "name is empty");
  else if (text.length > MAX_NAME) errors.add(line, `name is longer than ${MAX_NAME} characters`);
  else return text;
  return undefined;
}

function parseAliases(text: string | undefined, line: number, errors: Problems): string[] {
  const aliases = (text ?? "")
    .split("|")
    .map((a) => a.trim())
    .filter((a) => a !== "");
  const long = aliases.find((a) => a.length > MAX_NAME);
  if (long) errors.add(line, `alias "${long.slice(0, 20)}…" is longer than ${MAX_NAME} characters`);
  return aliases;
}

/** Remembers which row claimed each id, code and name, and reports a second claim. */
class Seen {
  private readonly owners = new Map<string, { line: number; label: string }>();
  constructor(private readonly errors: Problems) {}
  claim(space: string, key: string, label: string, line: number): void {
    const id = `${space}:${key}`;
    const owner = this.owners.get(id);
    if (!owner) this.owners.set(id, { line, label });
    else if (owner.line !== line) this.errors.add(line, `${label} is already used by row ${owner.line} (${owner.label})`);
  }
}

class Problems {
  private readonly list: Array<{ line: number; text: string }> = [];
  get count(): number {
    return this.list.length;
  }
  add(line: number, text: string): void {
    this.list.push({ line, text });
  }
  throwIfAny(file: string, kind: TableKind): void {
    if (this.list.length === 0) return;
    // Stable sort: a row's problems stay in column order.
    const sorted = [...this.list].sort((a, b) => a.line - b.line);
    const shown = sorted.slice(0, MAX_LISTED_ERRORS).map((p) => `  row ${p.line}: ${p.text}`);
    const more = this.list.length > MAX_LISTED_ERRORS ? [`  ...and ${this.list.length - MAX_LISTED_ERRORS} more`] : [];
    const rows = new Set(this.list.map((p) => p.line)).size;
    throw new UsageError(`${file}: ${rows} row(s) of the ${kind} table are invalid; nothing was imported\n${[...shown, ...more].join("\n")}`, {
      hint: `expected columns: ${columnsText(kind)}; row numbers are line numbers in the file`,
    });
  }
}
