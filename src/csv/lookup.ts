// Country and Service values from what a person typed: the raw integer always passes; a code or name passes only
// through a table the user can vouch for (a sandbox's own, imported or confirmed). Errors name the place (`where`,
// e.g. "row 4, column fulfillment_country") and how to fix it.
import { UsageError } from "../errors.js";
import { lookupCountry, lookupService, type Lookup, type Tables } from "../contract/index.js";

type Kind = "country" | "service";

const IMPORT_HINT: Record<Kind, (profileFlag: string) => string> = {
  country: (profileFlag) => `\`shipctl config tables import countries FILE.csv${profileFlag}\``,
  service: (profileFlag) => `\`shipctl config tables import services FILE.csv${profileFlag}\``,
};

/** The Country enum integer for `input` (an integer, an ISO alpha-2/alpha-3 code, or an English name). */
export function resolveCountry(tables: Tables, input: string | number, where: string): number {
  return resolveEnum("country", tables, input, where, (text) => lookupCountry(tables.countries, text));
}

/** The Service enum integer for `input` (an integer or a service name). */
export function resolveService(tables: Tables, input: string | number, where: string): number {
  return resolveEnum("service", tables, input, where, (text) => lookupService(tables.services, text));
}

function resolveEnum<T>(kind: Kind, tables: Tables, input: string | number, where: string, lookup: (text: string) => Lookup<T>): number {
  const text = typeof input === "number" ? String(input) : input.trim();
  const profileFlag = tables.profileFlag ?? "";
  const isInteger = /^\d+$/.test(text);
  if (!isInteger && /^[+-]?\d*\.?\d+$/.test(text)) {
    throw new UsageError(`${where}: ${kind} ${text} is not a ${kind === "country" ? "Country" : "Service"} value (positive whole numbers only)`);
  }
  if (!isInteger && text !== "" && tables.source === "unconfirmed") {
    throw new UsageError(`${where}: "${text}" is a ${kind} name or code, but no ${kind} table is confirmed for this service`, {
      hint: `give the ${kind === "country" ? "Country" : "Service"} integer instead, or run ${IMPORT_HINT[kind](profileFlag)} (or \`shipctl config tables confirm${profileFlag}\` to accept the built-in tables)`,
    });
  }
  const found = lookup(text);
  if (found.ok) return found.id;
  const empty = (kind === "country" ? tables.countries : tables.services).length === 0;
  throw new UsageError(`${where}: ${found.reason}`, {
    hint: empty
      ? `this profile has no ${kind} table: give the integer, or run ${IMPORT_HINT[kind](profileFlag)}`
      : `see the table with \`shipctl config tables show ${kind === "country" ? "countries" : "services"}${profileFlag}\`, or give the integer`,
  });
}
