// How an address reads for people: a stored address field by field (`address get`), and the service's verdict on
// one (`address verify`), with the revision it recommends shown as a diff.
import { ADDRESS_FIELDS, type AddressField, type StoredAddress } from "../contract/index.js";
import { renderDiff } from "../output/diff.js";
import type { Theme } from "../output/theme.js";
import { formatTimestamp } from "../output/time-format.js";
import type { VerificationResult } from "./verification.js";

/** The fields in the contract's order, named in words ("line 1", "post code"), between the id and the two times. */
export function addressRows(a: StoredAddress, country: (id: number) => string): Array<[string, string]> {
  const value = (f: AddressField) => (f === "country" ? country(a.country) : String(a[f] ?? ""));
  return [
    ["id", String(a.id)],
    ...ADDRESS_FIELDS.map((f): [string, string] => [f.replace("_", " "), value(f)]),
    ["created", formatTimestamp(a.created_at)],
    ["updated", formatTimestamp(a.updated_at)],
  ];
}

export function verdictText(r: VerificationResult, t: Theme): string {
  if (r.valid) return `${t.ok("valid")}: the service verified the address\n`;
  const verdict = `${t.error(r.recommended ? "revision recommended" : "invalid")} (status ${r.status} ${r.status_name}): ${r.message}\n`;
  if (!r.recommended) return verdict;
  return verdict + renderDiff(r.changes.map((c) => ({ field: c.field, before: c.from, after: c.to })), { theme: t });
}
