// Tables for people. One style everywhere, terminal or not: no borders, a header row, columns two spaces apart
// (as gh and kubectl print), so the output reads well and still splits on whitespace in a quick shell pipeline.
// Programs should use --json instead.
import Table from "cli-table3";
import stringWidth from "string-width";
import type { Theme } from "./theme.js";

export interface Column<R> {
  header: string;
  value: (row: R) => string | number | null | undefined;
  /** Numbers and amounts read better aligned right. */
  align?: "left" | "right";
  /** Never shrink this column below its content (ids, amounts); others give way first. */
  keep?: boolean;
}

export interface TableOptions {
  /** Colours the header (bold) when the theme is enabled. */
  theme?: Theme;
  /**
   * Width available (a terminal's columns). When the table is wider, the widest shrinkable columns are cut with "…".
   * Leave undefined when stdout is not a terminal: a pipe gets every character.
   */
  width?: number;
}

const GAP = 2;
const MIN_COLUMN = 6;
/**
 * Rows cli-table3 lays out at once. Its layout compares each cell with every cell above it (cli-table3 issue #68):
 * the 10,000-row results table of a batch took 19 of a 30 s run. Slices of this many rows, with the column widths
 * measured once over every row, print the same table.
 */
const SLICE_ROWS = 100;

export function renderTable<R>(columns: Column<R>[], rows: readonly R[], options: TableOptions = {}): string {
  const cells = rows.map((row) => columns.map((c) => cellText(c.value(row))));
  const bold = options.theme?.enabled ? options.theme.bold : (s: string) => s;
  const natural = columns.map((c, i) => cells.reduce((widest, r) => Math.max(widest, displayWidth(r[i]!)), displayWidth(c.header)));
  const widths = options.width === undefined ? natural : fitWidths(columns, natural, options.width);
  const slice = (head: string[], body: string[][]) => {
    const table = new Table({
      head,
      colAligns: columns.map((c) => c.align ?? "left"),
      // The gap is left padding, so right-aligned numbers keep their distance from the column before them.
      colWidths: widths.map((w) => w + GAP),
      wordWrap: false,
      truncate: "…",
      chars: NO_BORDERS,
      style: { "padding-left": GAP, "padding-right": 0, head: [], border: [], compact: true },
    });
    table.push(...body);
    // The first column needs no gap before it, and nothing needs trailing spaces.
    return table
      .toString()
      .split("\n")
      .map((line) => `${line.slice(GAP).trimEnd()}\n`)
      .join("");
  };
  let text = slice(
    columns.map((c) => bold(c.header)),
    cells.slice(0, SLICE_ROWS),
  );
  for (let at = SLICE_ROWS; at < cells.length; at += SLICE_ROWS) text += slice([], cells.slice(at, at + SLICE_ROWS));
  return text;
}

const NO_BORDERS = {
  top: "", "top-mid": "", "top-left": "", "top-right": "",
  bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "",
  left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "",
};

function cellText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  // A newline would break the row in two; tabs would misalign it.
  return String(value).replace(/\s*[\r\n]+\s*/g, " ").replace(/\t/g, " ");
}

/** Shrinks the widest columns not marked `keep`, one character at a time, until the table fits `width`. */
export function fitWidths<R>(columns: Column<R>[], natural: number[], width: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  while (total() > width) {
    // The first of the widest columns that may shrink; none left (all kept or at MIN_COLUMN): the table stays wider.
    const shrinkable = widths.map((w, i) => (columns[i]!.keep || w <= MIN_COLUMN ? -1 : w));
    const widest = shrinkable.indexOf(Math.max(...shrinkable));
    if (shrinkable[widest] === -1) break;
    widths[widest]!--;
  }
  return widths;
}

/** Terminal cells taken by `text`, ignoring colour codes, as cli-table3 measures them (a wide CJK character takes two). */
export function displayWidth(text: string): number {
  // Printable ASCII (most cells) takes a cell a character; string-width builds its colour-code pattern on every call.
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The width to pass to renderTable: the terminal's when stdout is one, none (no cutting) for a pipe. */
export function tableWidth(io: { stdoutIsTTY: boolean; columns: number }): number | undefined {
  return io.stdoutIsTTY ? io.columns : undefined;
}

/** One record as a two-column FIELD / VALUE table (the people's view of a single resource). */
export function renderRecord(rows: ReadonlyArray<readonly [string, string]>, options: TableOptions = {}): string {
  return renderTable(
    [
      { header: "FIELD", value: (r: readonly [string, string]) => r[0], keep: true },
      { header: "VALUE", value: (r: readonly [string, string]) => r[1] },
    ],
    rows,
    options,
  );
}
