// What shipctl read differently from how it was written, and which names it mapped through the tables: summed up
// per column with a few examples, so a 2,000-row file gives a short report and memory does not grow with the rows.
import type { Mapping } from "./table-cells.js";
import type { Change, ChangeKind } from "./row-types.js";

const EXAMPLES = 3;

/** What each kind of change means, after the column's name. */
const KIND_TEXT: Readonly<Record<ChangeKind, string>> = {
  "line-break": "line breaks and tabs folded to a space",
  apostrophe: "leading apostrophe dropped: a spreadsheet's text marker, or a formula shipctl's own files neutralised",
  separator: "a dot or comma before three digits, read as this column's other cells use it or as the only possible value",
  "post-code": "leading zeros the spreadsheet dropped put back: this country's post codes have a fixed number of digits",
  "post-code-unchecked":
    "all digits, and shipctl does not know this country's post code format: if the spreadsheet stored it as a number, " +
    "leading zeros may be lost (format the column as Text and type them again)",
};

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

/** At most this many distinct mappings are kept: a file naming thousands of countries is not a real case. */
const MAX_MAPPINGS = 500;

export class Notes {
  private readonly changes = new Map<string, ColumnChanges>();
  /** In the order first seen (the report's order). */
  private readonly mappings: Array<Mapping & { rows: number }> = [];
  /** The same entries by kind, then by what the file says: looked up on every row without building a key. */
  private readonly mappingsByKind = new Map<string, Map<string, Mapping & { rows: number }>>();

  add(row: number, changes: readonly Change[], mappings: readonly Mapping[]): void {
    for (const c of changes) {
      const key = c.kind === undefined ? c.column : `${c.column}\u0000${c.kind}`;
      let entry = this.changes.get(key);
      if (!entry) this.changes.set(key, (entry = c.kind === undefined ? { column: c.column, rows: 0, examples: [] } : { column: c.column, kind: c.kind, rows: 0, examples: [] }));
      entry.rows++;
      if (entry.examples.length < EXAMPLES) entry.examples.push({ row, from: c.from, to: c.to });
    }
    for (const m of mappings) {
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
  }

  get empty(): boolean {
    return this.changes.size === 0 && this.mappings.length === 0;
  }

  toJSON(): NotesJson {
    return { changes: [...this.changes.values()], mappings: [...this.mappings] };
  }

  /** Lines for stderr. `tablesSource` says where the mapping came from. */
  render(tablesSource: string): string {
    let out = "";
    if (this.changes.size > 0) {
      out += "Values read differently from how they are written:\n";
      for (const c of this.changes.values()) {
        const examples = c.examples.map((e) => (e.from === e.to ? `row ${e.row}: "${e.from}"` : `row ${e.row}: "${oneLine(e.from)}" -> ${e.to}`)).join("; ");
        const kind = c.kind === undefined ? "" : ` (${KIND_TEXT[c.kind]})`;
        out += `  ${c.column}${kind}: ${c.rows} row${c.rows === 1 ? "" : "s"} (${examples}${c.rows > c.examples.length ? "; ..." : ""})\n`;
      }
    }
    if (this.mappings.length > 0) {
      out += `Names and codes mapped through the ${tablesSource} tables:\n`;
      for (const m of this.mappings) {
        out += `  ${m.kind} "${m.input}" -> ${m.id} (${m.name}), ${m.rows} use${m.rows === 1 ? "" : "s"}\n`;
      }
    }
    return out;
  }
}

/** A cell's text on one line of a note: its line breaks and tabs shown as \n and \t. */
function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n").replace(/\t/g, "\\t");
}
