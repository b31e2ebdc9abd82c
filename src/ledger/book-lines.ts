// The ledger's file format: JSON Lines, one header, then records. Every book (CSV runs, shipments from flags or JSON,
// address add, report uploads, checkout) is written in it.
//   {"shipctl_ledger":2,"kind":"shipment-create","source":"orders.csv","written":"<ISO>"}
//   {"target":"<tid>","base_url":"https://...","profile":"default","owner":{"salt":"...","hash":"..."}}
//   {"t":"<tid>","rows":["k1","k2"],"state":"in_flight","at":"<ISO>","attempt":3,"settle_at":"<ISO>","sent":[{...},{...}]}
//   {"t":"<tid>","rows":["k1"],"sent_at":"<ISO>"}                      the last byte of an upload left
//   {"t":"<tid>","rows":["k1"],"answered_at":"<ISO>","answer_status":500,"settle_at":"<ISO>"}   the service answered it
//   {"t":"<tid>","rows":["k1","k2"],"state":"created","ids":[101,102]}
//   {"t":"<tid>","row":"k3","state":"failed","error":"..."}
//   {"t":"<tid>","address":"<hash>","verdict":{...}}                    an address verification, kept for reruns
// Rows of one request share a line. A crash can tear only the last line, which is then left out.
import { createHash } from "node:crypto";
import type { Address } from "../contract/index.js";

export const LEDGER_VERSION = 2;

/** What a book records, one kind per command that writes. */
export type BookKind = "shipment-create" | "shipment-update" | "address-add" | "address-update" | "report-upload" | "checkout";

/** A request that may have reached the service and whose answer is not recorded. */
export interface InFlight {
  state: "in_flight";
  /** When the intent was recorded, just before sending (this machine's clock, ISO). */
  at: string;
  /** Rows sent in one request share it: the service applies a request whole. */
  attempt: number;
  /** After this the service can no longer be applying it (settle-window.ts). */
  settle_at: string;
  /** Service time minus local time when it was recorded, if known: places `at` on the service's clock. */
  offset_ms?: number;
  /** What matching needs of what was sent (fields of the shipment, the address sent...): never the row as it is now. */
  sent?: unknown;
  /**
   * Recorded ahead of its request (an upload, a create waiting for a free slot): its settle time counts from `sent_at`,
   * recorded when its last byte is handed over; without it the request never left whole (Book.markSent).
   */
  await_sent?: boolean;
  /** When the last byte of the request was handed to the connection. */
  sent_at?: string;
  /** When the service itself answered it with a failure (its status in `answer_status`): the request is over (Book.markAnswered). */
  answered_at?: string;
  answer_status?: number;
}

export type RowState =
  | InFlight
  | { state: "created"; id: number }
  /** PATCH applied; `hash` is the content sent, so a row edited since is sent again. */
  | { state: "updated"; id: number; hash?: string }
  /** A condition report stored; `id` its shipment's (the book's claim, checked by the owner check); `at` when known. */
  | { state: "stored"; id?: number; at?: string }
  | { state: "paid" }
  /** The service certainly did not apply it (refused, or proven not applied): a rerun sends it again. */
  | { state: "failed"; error: string };

export type Verdict =
  | { status: "valid" }
  | { status: "invalid"; message: string; code?: number }
  | { status: "recommended"; revised: Address; message: string };

export interface Line {
  t?: string;
  row?: string;
  rows?: unknown;
  address?: string;
  target?: string;
  [k: string]: unknown;
}

export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

export function targetId(profile: string, baseUrl: string): string {
  return shortHash(`${profile}\n${baseUrl.replace(/\/+$/, "")}`).slice(0, 10);
}

/**
 * The records of a book's text, its header first. A crash can tear only the last line, which is left out; any other
 * line that is not JSON goes to `unreadable` (with its line number), and is left out if that returns.
 */
export function bookLines(text: string, unreadable: (lineNo: number) => void): Line[] {
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
  const { t: _t, row: _row, rows, ids, sent, ...state } = line;
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
export function linesFor(tid: string, entries: ReadonlyArray<readonly [string, RowState]>): string[] {
  if (entries.length === 0) return [];
  const [, first] = entries[0]!;
  const { id: _id, sent: _sent, ...shared } = first as RowState & { id?: unknown; sent?: unknown };
  const sharedText = JSON.stringify(shared);
  const same = entries.every(([, s]) => {
    const { id: _i, sent: _s, ...rest } = s as RowState & { id?: unknown; sent?: unknown };
    return JSON.stringify(rest) === sharedText;
  });
  if (entries.length === 1 || !same) return entries.map(([key, state]) => JSON.stringify({ t: tid, row: key, ...state }));
  const line: Record<string, unknown> = { t: tid, rows: entries.map(([k]) => k), ...shared };
  if ("id" in first) line.ids = entries.map(([, s]) => (s as { id?: number }).id);
  if ("sent" in first) line.sent = entries.map(([, s]) => (s as { sent?: unknown }).sent);
  return [JSON.stringify(line)];
}
