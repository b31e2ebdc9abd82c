// What an input sent, in its record in the organization's ledger (inputs/<hash>.jsonl): JSON Lines, one header, then
// records. The entries themselves are the store's (store.ts); this record keeps, for the input's run and its reruns,
// which rows it sent, under which keys, and the address verdicts it was given.
//   {"shipctl_ledger":3,"kind":"shipment-create","source":"/path/orders.csv","written":"<ISO>"}
//   {"rows":["k1","k2"],"state":"in_flight","at":"<ISO>","attempt":3,"settle_at":"<ISO>","sent":[{...},{...}]}
//   {"rows":["k1"],"sent_at":"<ISO>"}                      the last byte of an upload left
//   {"rows":["k1"],"answered_at":"<ISO>","answer_status":500,"settle_at":"<ISO>"}   the service answered it
//   {"rows":["k1","k2"],"state":"created","ids":[101,102]}
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
 * Each row's state in a record. In a record of several rows (`rows`), `sent` and `ids` are per row, in the order of
 * `rows`; a record of one row (`row`) holds its own `sent` as it is, which may itself be a list (the forms of an
 * address sent).
 */
export function statesOf(line: Line): Array<[string, RowState]> {
  const { row: _row, rows, ids, sent, ...state } = line;
  const several = Array.isArray(rows);
  return rowKeysOf(line).map((key, i) => {
    const own: Record<string, unknown> = { ...state };
    if (Array.isArray(ids)) own.id = ids[i];
    if (several && Array.isArray(sent)) own.sent = sent[i];
    else if (!several && sent !== undefined) own.sent = sent;
    return [key, own as unknown as RowState];
  });
}

/**
 * The lines for some row states: the rows of one request share one line when their states differ only by id or by
 * what was sent, which keeps a 10,000-row run's writes small.
 */
export function linesFor(entries: ReadonlyArray<readonly [string, RowState]>): string[] {
  if (entries.length === 0) return [];
  const [, first] = entries[0]!;
  const { id: _id, sent: _sent, ...shared } = first as RowState & { id?: unknown; sent?: unknown };
  const sharedText = JSON.stringify(shared);
  const same = entries.every(([, s]) => {
    const { id: _i, sent: _s, ...rest } = s as RowState & { id?: unknown; sent?: unknown };
    return JSON.stringify(rest) === sharedText;
  });
  if (entries.length === 1 || !same) return entries.map(([key, state]) => JSON.stringify({ row: key, ...state }));
  const line: Record<string, unknown> = { rows: entries.map(([k]) => k), ...shared };
  if ("id" in first) line.ids = entries.map(([, s]) => (s as { id?: number }).id);
  if ("sent" in first) line.sent = entries.map(([, s]) => (s as { sent?: unknown }).sent);
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
