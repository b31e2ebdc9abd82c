// Id arguments (`address get 12`, `shipment update 7`): checked before anything is sent, so a typo is exit 2, not a 404.
import { UsageError } from "../errors.js";
import { tooLargeDigits } from "../contract/limits.js";

/** A stored resource's id: a whole number from 1, written in plain digits. */
export function parseId(text: string, what: string): number {
  const trimmed = text.trim();
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    const must = tooLargeDigits(trimmed) ? "is too large" : "must be a positive whole number";
    throw new UsageError(`${what} ${must} (got ${JSON.stringify(text)})`, {
      hint: `Find the id with \`shipctl list ${what.startsWith("shipment") ? "shipments" : "addresses"}\`.`,
    });
  }
  return n;
}
