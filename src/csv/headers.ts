// Matches a file's header row to the command's columns the way people write headers: "Fulfillment Post Code",
// "fulfillment-post-code" and "FULFILLMENT_POST_CODE" are the same column. A missing column stops the run before
// anything is read further, naming the closest header that is there ("did you mean").
import { UsageError } from "../errors.js";
import { ADDRESS_SIDES } from "../contract/index.js";
import { REQUIRED_ADDRESS_FIELDS } from "../contract/index.js";
import { RESULT_COLUMNS, sideColumn, sideIdColumn, type Layout } from "./columns.js";

export function normaliseHeader(name: string): string {
  return name
    .replace(/[\ufeff\u200b-\u200d\u2060]/g, "")
    .normalize("NFKC")
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** Spreadsheet column letter of a 0-based index: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j]!;
      prev[j] = Math.min(above + 1, prev[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return prev[b.length]!;
}

export interface HeaderCell {
  /** As written in the file. */
  text: string;
  /** 0-based position. */
  index: number;
}

export interface HeaderMatch {
  /** Canonical column -> 0-based position in the file. */
  columns: Map<string, number>;
  /** Headers that are not columns of this command (ignored, reported once). */
  unknown: HeaderCell[];
  /** How the file names a column it gives under another accepted name (id -> shipment_id), for messages. */
  written?: Map<string, string>;
}

/** The unknown header closest to `column`, if it is close enough to be a typo. */
export function closestHeader(column: string, candidates: readonly HeaderCell[]): HeaderCell | undefined {
  let best: HeaderCell | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(column, normaliseHeader(c.text));
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= Math.max(2, Math.floor(column.length / 3)) ? best : undefined;
}

/** `mapped`: the sheet's own names for columns (--map or a saved mapping: column-map.ts), normalised header -> column. */
export function matchHeader(header: readonly string[], layout: Layout, file: string, mapped: ReadonlyMap<string, string> = new Map()): HeaderMatch {
  const known = new Set(layout.columns);
  const columns = new Map<string, number>();
  const written = new Map<string, string>();
  const unknown: HeaderCell[] = [];
  const problems: string[] = [];
  const names = new Set(header.map(normaliseHeader));
  for (const [from, to] of mapped) {
    if (!known.has(to)) problems.push(`the column mapping reads "${from}" as ${to}, which is not a column of this command`);
    else if (!names.has(from)) problems.push(`the column mapping names the header "${from}", which this file does not have`);
  }
  header.forEach((text, index) => {
    const key = normaliseHeader(text);
    const column = mapped.get(key) ?? layout.aliases[key] ?? key;
    if (key === "") return;
    if (known.has(column)) {
      const earlier = columns.get(column);
      if (earlier !== undefined) {
        problems.push(`columns ${columnLetter(earlier)} ("${header[earlier]}") and ${columnLetter(index)} ("${text}") are both read as ${column}; keep one`);
      } else {
        columns.set(column, index);
        if (column !== key) written.set(column, key);
      }
    } else if (!RESULT_COLUMNS.includes(key)) unknown.push({ text, index });
  });

  const missing = (column: string) => {
    const near = closestHeader(column, unknown);
    const guess = near ? `; did you mean "${near.text}" (column ${columnLetter(near.index)})?` : "";
    problems.push(`no ${column} column${guess}`);
  };
  for (const column of layout.required) if (!columns.has(column)) missing(column);
  if (layout.sides) {
    for (const side of ADDRESS_SIDES) {
      // A side takes the id column or the inline columns; once any inline column is there, all of them must be.
      const inline = REQUIRED_ADDRESS_FIELDS.map((f) => sideColumn(side, f));
      const present = inline.filter((c) => columns.has(c));
      if (present.length === 0 && columns.has(sideIdColumn(side))) continue;
      if (present.length === 0) {
        const near = closestHeader(sideIdColumn(side), unknown);
        const guess = near ? `; did you mean "${near.text}" (column ${columnLetter(near.index)})?` : "";
        problems.push(`no ${side} address: give a ${sideIdColumn(side)} column or the ${side}_name ... ${side}_country columns${guess}`);
      } else for (const c of inline) if (!columns.has(c)) missing(c);
    }
  }
  if (problems.length > 0) {
    const found = header.map((h, i) => `${columnLetter(i)} "${h}"`).join(", ");
    throw new UsageError(`${file}: the header row does not have the columns this command needs:\n  - ${problems.join("\n  - ")}`, {
      hint: `Headers found: ${found}.\n${columnsHint(layout)} (spaces, dashes, underscores and case do not matter).`,
    });
  }
  return { columns, unknown, written };
}

function columnsHint(layout: Layout): string {
  if (layout.sides) return `Run \`shipctl shipment template${layout.kind === "shipment-update" ? " --update" : ""}\` to see every column`;
  return `The columns are: ${layout.columns.join(", ")}`;
}
