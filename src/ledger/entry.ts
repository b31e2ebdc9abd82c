// What the ledger records of a write that must not repeat (an entry's state), and the hash its keys and files use.
import { createHash } from "node:crypto";
import type { Address } from "../contract/index.js";

/** What a ledger records, one kind per command that writes. */
export type WriteKind = "shipment-create" | "shipment-update" | "address-add" | "address-update" | "report-upload" | "checkout";

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
  /** A CSV row's sides and place in its file, kept for its outcome once settled (Created). */
  sides?: string[];
  file_row?: number;
  /**
   * Recorded ahead of its request (an upload, a create waiting for a free slot): its settle time counts from `sent_at`,
   * recorded when its last byte is handed over; without it the request never left whole (InputLedger.markSent).
   */
  await_sent?: boolean;
  /** When the last byte of the request was handed to the connection. */
  sent_at?: string;
  /** When the service itself answered it with a failure (its status in `answer_status`): the request is over (InputLedger.markAnswered). */
  answered_at?: string;
  answer_status?: number;
}

/**
 * Created (POST answered, or found by a read-back). A CSV row's also says what the row held then, so a rerun knows a
 * row edited since (shipments/changed-rows.ts): the shipment's own fields sent, each side's identity as the row gave
 * it, and the row's place in its file. Records written before these were kept have the id alone.
 */
export interface Created {
  state: "created";
  id: number;
  sent?: unknown;
  sides?: string[];
  file_row?: number;
}

export type RowState =
  | InFlight
  | Created
  /** PATCH applied; `hash` is the content sent, so a row edited since is sent again. */
  | { state: "updated"; id: number; hash?: string }
  /** A condition report stored; `id` its shipment's (the ledger's claim, checked by the owner check); `at` when known. */
  | { state: "stored"; id?: number; at?: string }
  | { state: "paid" }
  /**
   * A photo of a condition report sent, under the key of its content (photoKey): the set that sent it (`id` its
   * shipment's) and the original file, so a set sending the same bytes again is named with it (reports/reused-photos.ts).
   */
  | { state: "photo"; id: number; set: number; file: string; at: string }
  /** The service certainly did not apply it (refused, or proven not applied): a rerun sends it again. */
  | { state: "failed"; error: string };

/** The outcome of a row found created by a read-back: with the print its intent recorded of a CSV row (Created). */
export function createdFrom(inFlight: RowState | undefined, id: number): Created {
  if (inFlight?.state !== "in_flight" || inFlight.sides === undefined) return { state: "created", id };
  return { state: "created", id, sent: inFlight.sent, sides: inFlight.sides, ...(inFlight.file_row === undefined ? {} : { file_row: inFlight.file_row }) };
}

export type Verdict =
  | { status: "valid" }
  | { status: "invalid"; message: string; code?: number }
  | { status: "recommended"; revised: Address; message: string };

export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/** The first `digits` hex digits of a text's SHA-256: names of files (case-insensitive file systems fold base64). */
export function hexHash(text: string, digits: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, digits);
}

/**
 * `hash` made once per distinct text, for texts hashed again and again close together (a SHA-256 costs 5 to 10 us
 * here). Bounded: forgotten all at once when `kept` are held, so memory does not grow with a run's rows (a file of
 * 100,000 distinct addresses; unbounded, 100,000 rows' keys held 20 MB at once).
 */
export function remembered(hash: (text: string) => string, kept = 10_000): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    let h = seen.get(text);
    if (h === undefined) {
      if (seen.size >= kept) seen.clear();
      seen.set(text, (h = hash(text)));
    }
    return h;
  };
}

/**
 * shortHash of an inline address's key (addressKey), made once per distinct address: a batch's rows share a handful of
 * addresses, and a row's sides are hashed in its key, its print and its verification.
 */
export const addressHash = remembered(shortHash);
