// What an input sent, in its record in the organization's ledger (inputs/<hash>.jsonl): JSON Lines, one header, then
// records. The entries themselves are the store's (store.ts); this record keeps, for the input's run and its reruns,
// which rows it sent, under which keys, and the address verdicts it was given.
//   {"shipctl_ledger":3,"kind":"shipment-create","source":"/path/orders.csv","written":"<ISO>"}
//   {"rows":["k1","k2"],"state":"in_flight","at":"<ISO>","attempt":3,"settle_at":"<ISO>","sent":[{...},{...}]}
//   {"rows":["k1"],"sent_at":"<ISO>"}                      the last byte of an upload left
//   {"rows":["k1"],"answered_at":"<ISO>","answer_status":500,"settle_at":"<ISO>"}   the service answered it
//   {"rows":["k1","k2"],"state":"created","ids":[101,102]}
//   {"rows":["k1","k2"],"state":"created","ids":[...],"sent":[...],"file_rows":[2,3],"sides":[[..],[..]]}   a CSV row's
//   {"row":"k3","state":"failed","error":"..."}
//   {"address":"<hash>","verdict":{...}}                    an address verification, kept for reruns
// Rows of one request share a line. A crash can tear only the last line, which is then left out.
import type { WriteKind, RowState, Verdict } from "./entry.js";

export const LEDGER_VERSION = 3;

export interface Line {
  row?: string;
  rows?: unknown;
  address?: string;
  [k: string]: unknown;
}

/**
 * The records of a ledger's text, its header first. A crash can tear only the last line, which is left out; any other
 * line that is not JSON goes to `unreadable` (with its line number), and is left out if that returns.
 */
export function recordLines(text: string, unreadable: (lineNo: number) => void): Line[] {
  const raw = text.replace(/\0+$/, "").split("\n");
  while (raw.length > 0 && raw[raw.length - 1]!.trim() === "") raw.pop();
  const out: Line[] = [];
  raw.forEach((line, i) => {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        out.push(value as Line);
        return;
      }
    } catch {
      // handled below
    }
    if (i < raw.length - 1) unreadable(i + 1);
  });
  return out;
}

/** The rows a record is about: one (`row`) or a request's worth (`rows`). */
export function rowKeysOf(line: Line): string[] {
  if (Array.isArray(line.rows)) return line.rows.filter((k): k is string => typeof k === "string");
  return typeof line.row === "string" ? [line.row] : [];
}

/**
 * What differs row by row in one request's states, and the line's name for its list: a line of several rows holds
 * one list per such field, in the order of `rows` (a row's place in its file and its sides: changed-rows.ts).
 */
const PER_ROW: ReadonlyArray<readonly [string, string]> = [
  ["id", "ids"],
  ["sent", "sent"],
  ["file_row", "file_rows"],
  ["sides", "sides"],
];

/**
 * Each row's state in a record. In a record of several rows (`rows`), `sent`, `ids` (and the other PER_ROW lists) are
 * per row, in the order of `rows`; a record of one row (`row`) holds its own `sent` as it is, which may itself be a
 * list (the forms of an address sent).
 */
export function statesOf(line: Line): Array<[string, RowState]> {
  const { row: _row, rows, ...rest } = line;
  const several = Array.isArray(rows);
  const state: Record<string, unknown> = { ...rest };
  for (const [, list] of PER_ROW) delete state[list];
  return rowKeysOf(line).map((key, i) => {
    const own: Record<string, unknown> = { ...state };
    for (const [field, list] of PER_ROW) {
      const value = line[list];
      // `ids` is a list in a record of one row too (a line of one row written with `rows`).
      if (several || field === "id") {
        if (Array.isArray(value) && (field === "id" || (value[i] !== undefined && value[i] !== null))) own[field] = value[i];
      } else if (value !== undefined) own[field] = value;
    }
    return [key, own as unknown as RowState];
  });
}

/**
 * The lines for some row states: the rows of one request share one line when their states differ only by what
 * differs row by row (PER_ROW: id, what was sent...), which keeps a 10,000-row run's writes small.
 */
export function linesFor(entries: ReadonlyArray<readonly [string, RowState]>): string[] {
  if (entries.length === 0) return [];
  const sharedOf = (s: RowState) => {
    const rest: Record<string, unknown> = { ...s };
    for (const [field] of PER_ROW) delete rest[field];
    return JSON.stringify(rest);
  };
  const [, first] = entries[0]!;
  const sharedText = sharedOf(first);
  const same = entries.every(([, s]) => sharedOf(s) === sharedText);
  if (entries.length === 1 || !same) return entries.map(([key, state]) => JSON.stringify({ row: key, ...state }));
  const line: Record<string, unknown> = { rows: entries.map(([k]) => k), ...(JSON.parse(sharedText) as Record<string, unknown>) };
  for (const [field, list] of PER_ROW) if (field in first) line[list] = entries.map(([, s]) => (s as unknown as Record<string, unknown>)[field]);
  return [JSON.stringify(line)];
}

/** A record folded into one snapshot: its header, the address verdicts, then each row's latest state. */
export function snapshotText(kind: WriteKind, source: string, verdicts: ReadonlyMap<string, Verdict>, rows: ReadonlyMap<string, RowState>): string {
  const header = { shipctl_ledger: LEDGER_VERSION, kind, source, written: new Date().toISOString() };
  const out: string[] = [JSON.stringify(header)];
  for (const [key, verdict] of verdicts) out.push(JSON.stringify({ address: key, verdict }));
  for (const [key, state] of rows) out.push(JSON.stringify({ row: key, ...state }));
  return `${out.join("\n")}\n`;
}
