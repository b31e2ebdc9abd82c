// What shipctl read differently from how it was written, and which names it mapped through the tables: one line per
// kind of reading, with its count of rows and the first few rows, so a 2,000-row file (or a rerun) gives a short
// report and memory does not grow with the rows. Each row's own notes go to the results file's note column
// (--results), kept only then.
import type { Mapping } from "./table-cells.js";
import type { Change, ChangeKind } from "./row-types.js";

/**
 * What each kind of note says, as "N rows: <this>". A new kind of reading is a line here and `kind` on the Changes
 * that make it. A Change without a kind is of its column's, which reads "values of <column> read differently".
 */
export const NOTE_KINDS: Readonly<Record<ChangeKind | Mapping["kind"], string>> = {
  number: "numbers read from how the spreadsheet shows them ($1,200 -> 1200)",
  phone: "phone numbers written in international form",
  separator: "a dot or comma before three digits, read as this column's other cells use it or as the only possible value",
  "line-break": "line breaks and tabs folded to a space",
  apostrophe: "leading apostrophe dropped: a spreadsheet's text marker, or a formula shipctl's own files neutralised",
  "post-code": "leading zeros the spreadsheet dropped put back: this country's post codes have a fixed number of digits",
  "post-code-unchecked":
    "all digits, and shipctl does not know this country's post code format: if the spreadsheet stored it as a number, " +
    "leading zeros may be lost (format the column as Text and type them again)",
  country: "country names and codes mapped to the service's ids",
  service: "service names mapped to the service's ids",
};

/** Rows listed per kind, and examples of what was read, before "…". */
const EXAMPLES = 3;

interface ColumnChanges {
  column: string;
  kind?: ChangeKind;
  rows: number;
  examples: Array<{ row: number; from: string; to: string }>;
}

export interface NotesJson {
  changes: ColumnChanges[];
  mappings: Array<Mapping & { rows: number }>;
}

interface KindGroup {
  kind: string;
  rows: number;
  firstRows: number[];
  lastRow: number;
  /** The columns it was met in (the first few). */
  columns: string[];
  /** The first change of this kind, to show what the reading did. */
  example?: { row: number; from: string; to: string };
}

/** At most this many distinct mappings are kept: a file naming thousands of countries is not a real case. */
const MAX_MAPPINGS = 500;

export class Notes {
  private readonly changes = new Map<string, ColumnChanges>();
  /** In the order first seen (the report's order). */
  private readonly mappings: Array<Mapping & { rows: number }> = [];
  /** The same entries by kind, then by what the file says: looked up on every row without building a key. */
  private readonly mappingsByKind = new Map<string, Map<string, Mapping & { rows: number }>>();
  /** One per kind of note, in the order first seen. */
  private readonly groups = new Map<string, KindGroup>();
  /** Each row's notes as one text, kept only for a results file (`perRow`). */
  private readonly byRow: Map<number, string> | undefined;

  constructor(options: { perRow?: boolean } = {}) {
    this.byRow = options.perRow ? new Map() : undefined;
  }

  add(row: number, changes: readonly Change[], mappings: readonly Mapping[]): void {
    for (const c of changes) {
      const key = c.kind === undefined ? c.column : `${c.column}\u0000${c.kind}`;
      let entry = this.changes.get(key);
      if (!entry) this.changes.set(key, (entry = c.kind === undefined ? { column: c.column, rows: 0, examples: [] } : { column: c.column, kind: c.kind, rows: 0, examples: [] }));
      entry.rows++;
      if (entry.examples.length < EXAMPLES) entry.examples.push({ row, from: c.from, to: c.to });
      this.count(c.kind ?? c.column, row, { row, from: c.from, to: c.to }, c.column);
    }
    for (const m of mappings) {
      this.count(m.kind, row);
      let byInput = this.mappingsByKind.get(m.kind);
      if (!byInput) this.mappingsByKind.set(m.kind, (byInput = new Map()));
      const entry = byInput.get(m.input);
      if (entry) entry.rows++;
      else if (this.mappings.length < MAX_MAPPINGS) {
        const added = { ...m, rows: 1 };
        byInput.set(m.input, added);
        this.mappings.push(added);
      }
    }
    if (this.byRow && (changes.length > 0 || mappings.length > 0)) {
      const parts = [...changes.map((c) => (c.from === c.to ? `${c.column} "${oneLine(c.from)}" (${c.kind})` : `${c.column} "${oneLine(c.from)}" -> ${c.to}`)), ...mappings.map((m) => `${m.kind} "${m.input}" -> ${m.id} (${m.name})`)];
      this.byRow.set(row, parts.join("; "));
    }
  }

  /** A row counts once per kind, however many of its cells are of that kind (rows come in file order). */
  private count(kind: string, row: number, example?: KindGroup["example"], column?: string): void {
    let group = this.groups.get(kind);
    if (!group) this.groups.set(kind, (group = { kind, rows: 0, firstRows: [], lastRow: -1, columns: [], example }));
    if (column !== undefined && column !== kind && !group.columns.includes(column) && group.columns.length <= EXAMPLES) group.columns.push(column);
    if (group.lastRow === row) return;
    group.lastRow = row;
    group.rows++;
    if (group.firstRows.length < EXAMPLES) group.firstRows.push(row);
  }

  get empty(): boolean {
    return this.groups.size === 0;
  }

  /** The notes of one row, for the results file's note column ("" when none, or when not kept). */
  rowNote(row: number): string {
    return this.byRow?.get(row) ?? "";
  }

  toJSON(): NotesJson {
    return { changes: [...this.changes.values()], mappings: [...this.mappings] };
  }

  /**
   * Lines for stderr, one per kind. `tablesSource` says where the mappings came from; `resultsFile`, where each row's
   * notes are written.
   */
  render(tablesSource: string, resultsFile?: string): string {
    if (this.groups.size === 0) return "";
    const where = resultsFile ? ` (each row's notes: the note column of ${resultsFile})` : "";
    let out = `Values read differently from how they are written${where}:\n`;
    for (const g of this.groups.values()) {
      const rows = `row${g.firstRows.length === 1 ? "" : "s"} ${g.firstRows.join(", ")}${g.rows > g.firstRows.length ? ", …" : ""}`;
      const detail = this.mappingsByKind.has(g.kind)
        ? ` through the ${tablesSource} tables: ${this.mappingsText(g.kind)}`
        : g.example
          ? `, e.g. "${oneLine(g.example.from)}"${g.example.from === g.example.to ? "" : ` -> ${g.example.to}`}`
          : "";
      const says = (NOTE_KINDS as Readonly<Record<string, string>>)[g.kind] ?? `values of ${g.kind} read differently`;
      const columns = g.columns.length === 0 ? "" : ` [${g.columns.slice(0, EXAMPLES).join(", ")}${g.columns.length > EXAMPLES ? ", …" : ""}]`;
      out += `  ${g.rows} row${g.rows === 1 ? "" : "s"}: ${says}${columns}${detail} (${rows})\n`;
    }
    return out;
  }

  /** The first few names of a kind as mapped: `"US" -> 1 (United States), ... and 4 more`. */
  private mappingsText(kind: string): string {
    const all = [...this.mappingsByKind.get(kind)!.values()];
    const shown = all.slice(0, EXAMPLES).map((m) => `"${m.input}" -> ${m.id} (${m.name})`);
    return `${shown.join(", ")}${all.length > EXAMPLES ? ` and ${all.length - EXAMPLES} more` : ""}`;
  }
}

/** A cell's text on one line of a note: its line breaks and tabs shown as \n and \t. */
function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n").replace(/\t/g, "\\t");
}
