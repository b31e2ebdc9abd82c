// One inline address from a row's cells: country through the tables (its alpha-2 reads national phone numbers),
// the phone to E.164, a post code that lost its leading zeros in a spreadsheet put back (visibly), then the
// contract's Address schema. A gallery's own address repeated on 500 rows is worked out once: results are cached
// by the raw cells.
import { ADDRESS_FIELDS, Address, addressKey, fitPostCode, type AddressField } from "../contract/index.js";
import { readCountry, type Mapping } from "./table-cells.js";
import { readPhone } from "./phone-cell.js";
import { foldedText } from "./text-cells.js";
import type { Change, RowContext } from "./row-types.js";

/** Problems and changes name the address field; the caller turns it into its column (`fulfillment_phone`). */
export interface FieldProblem {
  field: AddressField;
  reason: string;
}

export type AddressBuild =
  | {
      ok: true;
      address: Address;
      changes: Array<Change & { column: AddressField }>;
      mappings: Mapping[];
      /** The normalised address as canonical JSON: equal addresses, equal keys. */
      key: string;
    }
  | { ok: false; problems: FieldProblem[] };

export function buildAddress(cells: Record<AddressField, string>, ctx: RowContext): AddressBuild {
  const problems: FieldProblem[] = [];
  const changes: Array<Change & { column: AddressField }> = [];
  const mappings: Mapping[] = [];
  const out: Record<string, unknown> = {};
  for (const field of ADDRESS_FIELDS) {
    if (field === "country" || field === "phone") continue;
    const text = foldedText(cells[field], field, changes);
    if (text !== "" || field !== "line_2") out[field] = text;
  }
  const country = readCountry(cells.country, ctx.tables, "country");
  let alpha2: string | undefined;
  if (country.ok) {
    out.country = country.value.id;
    alpha2 = country.value.alpha2;
    if (country.value.mapping) mappings.push(country.value.mapping);
  } else problems.push({ field: "country", reason: country.reason });

  // Without a readable country, a national number cannot be read either; report only the country then (and let
  // the schema below not call the phone that waits for it missing).
  const phoneWaits = !country.ok && !/^\s*(?:\+|00)/.test(cells.phone) && cells.phone.trim() !== "";
  if (!phoneWaits) {
    const phone = readPhone(cells.phone, alpha2, "phone");
    if (phone.ok) {
      out.phone = phone.value;
      if (phone.changed) changes.push({ column: "phone", from: cells.phone.trim(), to: phone.value, kind: "phone" });
    } else problems.push({ field: "phone", reason: phone.reason });
  }

  // Spreadsheets read 02134 as the number 2134: leading zeros put back where the padded code fits the region, and
  // every code checked against its country's format (and a US ZIP against its state).
  if (typeof out.post_code === "string" && out.post_code !== "" && country.ok) {
    const postCode = readPostCode(out.post_code, alpha2, typeof out.region === "string" ? out.region : "", "post_code");
    if (!postCode.ok) problems.push({ field: "post_code", reason: postCode.reason });
    else {
      out.post_code = postCode.value;
      if (postCode.change) changes.push({ ...postCode.change, column: "post_code" });
    }
  }

  const checked = Address.safeParse(out);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = String(issue.path[0] ?? "") as AddressField;
      if (problems.some((p) => p.field === field) || (field === "phone" && phoneWaits)) continue;
      problems.push({ field, reason: issue.message });
    }
  }
  if (problems.length > 0 || !checked.success) return { ok: false, problems };
  const key = addressKey(checked.data);
  return { ok: true, address: checked.data, changes, mappings, key };
}

/**
 * A post code cell read with its row's country and region (contract/post-code-fit.ts): leading zeros a spreadsheet
 * dropped are put back only where the padded code fits the region, a code that fits neither is refused naming the
 * cell, and a digits-only code of a country whose format shipctl does not know is sent as written with a warning.
 * Each of those is visible: a change (note) or a problem, never silent.
 */
export function readPostCode(text: string, alpha2: string | undefined, region: string, column: string): { ok: true; value: string; change?: Change } | { ok: false; reason: string } {
  const fit = fitPostCode(text, alpha2, region);
  if (!fit.ok) return { ok: false, reason: `${column} ${fit.reason}` };
  if ("unchecked" in fit) return { ok: true, value: text, change: { column, from: text, to: text, kind: "post-code-unchecked" } };
  if (!fit.padded) return { ok: true, value: text };
  return { ok: true, value: fit.value, change: { column, from: text, to: fit.value, kind: "post-code" } };
}

/**
 * buildAddress with a cache of the raw cells (in ADDRESS_FIELDS order): a gallery's own address on 500 rows is read
 * once. Use one per address column group (each side of a shipment). Bounded: past `limit` distinct addresses the
 * cache starts again, so memory does not grow with the rows.
 */
export function cachedAddressBuilder(ctx: RowContext, limit = 2000): (values: readonly string[]) => AddressBuild {
  const cache = new Map<string, AddressBuild>();
  return (values) => {
    const key = JSON.stringify(values);
    let built = cache.get(key);
    if (built === undefined) {
      const cells = Object.fromEntries(ADDRESS_FIELDS.map((f, i) => [f, values[i] ?? ""])) as Record<AddressField, string>;
      built = buildAddress(cells, ctx);
      if (cache.size >= limit) cache.clear();
      cache.set(key, built);
    }
    return built;
  };
}
