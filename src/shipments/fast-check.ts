// The contract's Shipment rules as plain checks, for the common case of a well-formed row: zod then does not run at
// all (it costs more than building the row). The rules come from limits.ts, like the schema's; a row these checks
// refuse goes through the contract's Shipment schema, which says why (shipment-row.ts). Both must give the same
// verdict on every payload: test/unit/batch/fast-check.test.ts holds them to it on generated good and bad payloads.
import { ADDRESS_SIDES, SHIPMENT_BOUNDS, charLength, type Range } from "../contract/index.js";

/** The keys Shipment (a strict object) accepts. */
const SHIPMENT_KEYS = new Set([
  "title",
  "value",
  "length",
  "height",
  "depth",
  "service",
  ...ADDRESS_SIDES.flatMap((side) => [`${side}_address_id`, `${side}_address`]),
]);

const SIDE_KEYS = ADDRESS_SIDES.map((side) => [`${side}_address_id`, `${side}_address`] as const);

function boundedText(v: unknown, range: Range): boolean {
  if (typeof v !== "string" || v.trim() === "") return false;
  // Counting code points costs a loop: only needed when the UTF-16 length is not already decisive.
  if (v.length >= range.min * 2 && v.length <= range.max) return true;
  const n = charLength(v);
  return n >= range.min && n <= range.max;
}

function wholeIn(v: unknown, range: Range): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= range.min && v <= range.max;
}

function positiveWhole(v: unknown): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= 1;
}

/**
 * Whether `Shipment.safeParse` accepts the payload, where each side's inline address (`fulfillment_address`) counts
 * as present and valid: the row builder has already checked it with the contract's Address schema.
 */
export function shipmentPasses(p: Readonly<Record<string, unknown>>): boolean {
  for (const key in p) if (!SHIPMENT_KEYS.has(key)) return false;
  const S = SHIPMENT_BOUNDS;
  if (!boundedText(p.title, S.title) || !wholeIn(p.value, S.value) || !wholeIn(p.length, S.length)) return false;
  if (!wholeIn(p.height, S.height) || !wholeIn(p.depth, S.depth) || !positiveWhole(p.service)) return false;
  for (const [idKey, inlineKey] of SIDE_KEYS) {
    const id = p[idKey];
    const hasId = id !== undefined;
    // Exactly one of the two per side; an id must be a positive whole number.
    if (hasId === (p[inlineKey] !== undefined)) return false;
    if (hasId && !positiveWhole(id)) return false;
  }
  return true;
}
