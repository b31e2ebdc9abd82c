// What names a write in the organization's ledger (an entry's key), and what names an input (its record and its
// exclusion). Keys say what a write is, whichever input sent it: a shipment created from a CSV row, from flags or from
// JSON is one family ("shipment:<row key>"); a report is "report:<shipment>/<set>"; a payment "payment:<shipment>".
// A photo a report sent is "photo:<SHA-256 of its bytes>": not a write, but what a set sent, found by its content.
import { join } from "node:path";
import { hexHash, type WriteKind } from "./entry.js";

/** The family of writes a kind's keys belong to: one for every way a shipment (an address...) is created. */
export const FAMILY: Record<WriteKind, string> = {
  "shipment-create": "shipment",
  "shipment-update": "shipment-update",
  "address-add": "address",
  "address-update": "address-update",
  "report-upload": "report",
  checkout: "payment",
};

/** Which settled entries a new claim may replace: updates and payments are sent again once settled. */
export const OVER: Record<WriteKind, "failed" | "settled"> = {
  "shipment-create": "failed",
  "shipment-update": "settled",
  "address-add": "failed",
  "address-update": "settled",
  "report-upload": "failed",
  checkout: "settled",
};

/** What names an input in the ledger: its kind and name (and part), for its record and its exclusion. */
export function inputScope(kind: WriteKind, source: string, part?: string): string {
  return `${kind}\n${source}${part === undefined ? "" : `\n${part}`}`;
}

/** Where an input's record is: `scope` is its kind and name (and part). */
export function inputRecordPath(dir: string, scope: string): string {
  return join(dir, "inputs", `${hexHash(scope, 32)}.jsonl`);
}

/** The entry of a photo a condition report sent, found by its content (its SHA-256 in hex) whichever file holds it. */
export function photoKey(sha256: string): string {
  return `photo:${sha256}`;
}
