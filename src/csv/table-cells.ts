// Country and service cells through the profile's tables, with the same rules as every other command
// (config/lookup.ts): the raw integer always works; a code or a name only through a table the user may rely on, so
// against a service whose table is unconfirmed the row is refused rather than guessed (contract-notes,
// "Enumerations"). Every name or code that was mapped is returned, so the mapping can be shown in the dry run and
// the results.
import { lookupCountry, lookupService, type Tables } from "../contract/index.js";
import { resolveCountry, resolveService } from "./lookup.js";
import { CliError } from "../errors.js";
import type { Reading } from "./numbers.js";

export interface Mapping {
  kind: "country" | "service";
  input: string;
  id: number;
  name: string;
}

export interface CountryReading {
  id: number;
  /** ISO alpha-2 of the country when a table the user may rely on knows it: used to read national phone numbers. */
  alpha2?: string;
  mapping?: Mapping;
}

function refused(e: unknown): Reading<never> {
  if (!(e instanceof CliError)) throw e;
  // Messages of lookup.ts start with the place given to it: the column here.
  // The hint matters when it says something new (the table is not confirmed); not when it repeats "give the integer".
  const hint = e.hint && !e.message.includes("give the integer") ? `; ${e.hint}` : "";
  return { ok: false, reason: `${e.message}${hint}` };
}

export function readCountry(raw: string, tables: Tables, column: string): Reading<CountryReading> {
  const text = raw.trim();
  if (text === "") return { ok: false, reason: `${column} is required` };
  let id: number;
  try {
    id = resolveCountry(tables, text, column);
  } catch (e) {
    return refused(e);
  }
  const found = lookupCountry(tables.countries, text);
  const entry = found.ok && tables.source !== "unconfirmed" ? found.entry : undefined;
  const named = found.ok && found.via !== "integer";
  const mapping = named ? { kind: "country" as const, input: text, id, name: entry?.name ?? String(id) } : undefined;
  return { ok: true, value: { id, alpha2: entry?.alpha2, mapping }, changed: named };
}

export function readService(raw: string, tables: Tables, column: string): Reading<{ id: number; mapping?: Mapping }> {
  const text = raw.trim();
  if (text === "") return { ok: false, reason: `${column} is required` };
  let id: number;
  try {
    id = resolveService(tables, text, column);
  } catch (e) {
    return refused(e);
  }
  if (/^\d+$/.test(text)) return { ok: true, value: { id }, changed: false };
  const found = lookupService(tables.services, text);
  const name = found.ok ? (found.entry?.name ?? String(id)) : String(id);
  return { ok: true, value: { id, mapping: { kind: "service", input: text, id, name } }, changed: true };
}
