// Matches a file's header row to the command's columns the way people write headers: "Fulfillment Post Code",
// "fulfillment-post-code" and "FULFILLMENT_POST_CODE" are the same column. A missing column stops the run before
// anything is read further, naming the closest header that is there ("did you mean"); at a terminal the person is
// asked for it instead (batch/column-prompt.ts), ranked by rankHeaders here.
import { UsageError } from "../errors.js";
import { shellQuote } from "../output/shell-quote.js";
import { ADDRESS_SIDES, REQUIRED_ADDRESS_FIELDS, type AddressSide } from "../contract/index.js";
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
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : columnLetter(Math.floor(index / 26) - 1) + letter;
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

/** Words of a normalised header: "fulfilment_postcode" -> ["fulfilment", "postcode"]. */
function words(name: string): string[] {
  return name.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

/** One word standing for another: the same, one inside the other ("postcode" holds "post"), or a one-letter typo. */
function sameWord(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short === long) return true;
  if (short.length >= 3 && long.includes(short)) return true;
  return short.length >= 5 && editDistance(short, long) <= 1;
}

interface Closeness {
  /** How many of the column's words the header has. */
  shared: number;
  /** Edit distance between the two with their separators left out ("post_code" and "Postcode" are 0 apart). */
  distance: number;
}

function closeness(column: string, header: string): Closeness {
  const theirs = words(normaliseHeader(header));
  return {
    // A word of one or two characters ("1" of line_1, "id") says nothing on its own.
    shared: words(column).filter((w) => w.length >= 3 && theirs.some((t) => sameWord(w, t))).length,
    distance: editDistance(column.replace(/_/g, ""), theirs.join("")),
  };
}

/**
 * The headers in order of how likely each is to be `column`, closest first: the most of the column's words
 * ("Insured value" has value's), then the fewest edits, then the file's order. Plain arithmetic: a sheet has tens of
 * headers, and the person choosing sees them all.
 */
export function rankHeaders(column: string, candidates: readonly HeaderCell[]): HeaderCell[] {
  const scored = candidates.map((cell) => ({ cell, ...closeness(column, cell.text) }));
  scored.sort((a, b) => b.shared - a.shared || a.distance - b.distance || a.cell.index - b.cell.index);
  return scored.map((s) => s.cell);
}

/** The unknown header closest to `column`, if it is close enough to be meant: it shares a word, or is a typo away. */
export function closestHeader(column: string, candidates: readonly HeaderCell[]): HeaderCell | undefined {
  const best = rankHeaders(column, candidates)[0];
  if (best === undefined) return undefined;
  const { shared, distance } = closeness(column, best.text);
  return shared > 0 || distance <= Math.max(2, Math.floor(column.length / 3)) ? best : undefined;
}

/** A column the file lacks; with `side`, that whole address side is missing and `column` is its id column. */
export interface MissingColumn {
  column: string;
  side?: AddressSide;
}

export interface HeaderReading extends HeaderMatch {
  /** The columns this command needs that the file does not have, in template order. */
  missing: MissingColumn[];
  /** Every other problem of the header: a column given twice, a mapping from or to nothing. */
  problems: string[];
}

/** The header read as the command's columns, and what is wrong with it, without stopping (matchHeader stops). */
export function readHeader(header: readonly string[], layout: Layout, mapped: ReadonlyMap<string, string> = new Map()): HeaderReading {
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

  const missing: MissingColumn[] = layout.required.filter((c) => !columns.has(c)).map((column) => ({ column }));
  if (layout.sides) {
    for (const side of ADDRESS_SIDES) {
      // A side takes the id column or the inline columns; once any inline column is there, all of them must be.
      const inline = REQUIRED_ADDRESS_FIELDS.map((f) => sideColumn(side, f));
      const present = inline.filter((c) => columns.has(c));
      if (present.length === 0 && columns.has(sideIdColumn(side))) continue;
      if (present.length === 0) missing.push({ column: sideIdColumn(side), side });
      else for (const c of inline) if (!columns.has(c)) missing.push({ column: c });
    }
  }
  return { columns, unknown, written, missing, problems };
}

/** `mapped`: the sheet's own names for columns (--map or a saved mapping: column-map.ts), normalised header -> column. */
export function matchHeader(header: readonly string[], layout: Layout, file: string, mapped: ReadonlyMap<string, string> = new Map()): HeaderMatch {
  const reading = readHeader(header, layout, mapped);
  const error = headerError(reading, header, layout, file);
  if (error) throw error;
  return reading;
}

/** Why the run cannot read this header, every problem at once, each missing column with its likeliest header. */
export function headerError(reading: HeaderReading, header: readonly string[], layout: Layout, file: string): UsageError | undefined {
  const { unknown, missing } = reading;
  const problems = [...reading.problems];
  const pairs: string[] = [];
  for (const m of missing) {
    const near = closestHeader(m.column, unknown);
    // A header with a comma cannot be written in --map's pairs: the hint then shows the pattern instead.
    if (near && !near.text.includes(",")) pairs.push(`${near.text}=${m.column}`);
    const guess = near ? `; did you mean "${near.text}" (column ${columnLetter(near.index)})?` : "";
    problems.push(m.side ? `no ${m.side} address: give a ${m.column} column or the ${m.side}_name ... ${m.side}_country columns${guess}` : `no ${m.column} column${guess}`);
  }
  if (problems.length === 0) return undefined;
  const found = header.map((h, i) => `${columnLetter(i)} "${h}"`).join(", ");
  // The pairs only where every missing column has a likely header: a partial --map would be refused again.
  const yours = missing.length === 0 ? "" : `\nTo read your own headers as these columns: --map ${shellQuote(pairs.length === missing.length ? pairs.join(",") : "YOUR HEADER=column,...")} (kept for files with this header; at a terminal, shipctl asks).`;
  return new UsageError(`${file}: the header row does not have the columns this command needs:\n  - ${problems.join("\n  - ")}`, {
    hint: `Headers found: ${found}.\n${columnsHint(layout)} (spaces, dashes, underscores and case do not matter).${yours}`,
  });
}

function columnsHint(layout: Layout): string {
  if (layout.sides) return `Run \`shipctl shipment template${layout.kind === "shipment-update" ? " --update" : ""}\` to see every column`;
  return `The columns are: ${layout.columns.join(", ")}`;
}
