// Country and Service values given on the command line or in a file. A raw integer needs no table (and so no
// network); a code or a name goes through the profile's tables, which are never applied silently to a service whose
// table the user has not confirmed (contract-notes, "Enumerations").
import type { CountryEntry, Tables } from "../contract/index.js";
import { resolveCountry, resolveService } from "../csv/lookup.js";
import type { Deps } from "../deps.js";
import { CliError } from "../errors.js";
import type { FieldProblem } from "./problems.js";

export interface Resolved<T> {
  id: number;
  /** The table's entry for the value, when the profile's table has one. */
  entry?: T;
}

/** A whole number given as a number or as plain digits; anything else is a code or a name. */
export function rawEnumValue(input: unknown): number | undefined {
  if (typeof input === "number") return input;
  if (typeof input === "string" && /^\s*\d+\s*$/.test(input)) return Number(input);
  return undefined;
}

async function tablesOf(deps: Deps): Promise<Tables> {
  return (await deps.connection()).tables();
}

/** The profile's tables, or undefined (said with --debug, after `why`) when they cannot be had. */
async function tablesIfAny(deps: Deps, why: string): Promise<Tables | undefined> {
  try {
    return await tablesOf(deps);
  } catch (e) {
    deps.debug(`${why}: ${(e as Error).message}`);
    return undefined;
  }
}

/** `where` names the input for messages, e.g. `--country` or `"country" in addr.json`. */
export async function resolveCountryInput(deps: Deps, input: string, where: string): Promise<Resolved<CountryEntry>> {
  const tables = await tablesOf(deps);
  const id = resolveCountry(tables, input, where);
  return { id, entry: tables.countries.find((c) => c.id === id) };
}

/** The service's id for a name or a raw integer; `where` as for resolveCountryInput. */
export async function resolveServiceInput(deps: Deps, input: string, where: string): Promise<number> {
  return resolveService(await tablesOf(deps), input, where);
}

/** A table look-up that failed (an unknown name, no confirmed table) as a problem of the field, its hint kept. */
export function lookupProblem(e: unknown, field: string): FieldProblem {
  if (!(e instanceof CliError)) throw e;
  const prefix = `${field}: `;
  const reason = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
  return { field, message: e.hint ? `${reason} (${e.hint})` : reason };
}

/**
 * A service name checked for a report that already lists other problems, so that one run names them all. Tables that
 * cannot be had (not logged in, no network) leave the name unchecked rather than hide the other problems.
 */
export async function serviceNameProblem(deps: Deps, text: string): Promise<FieldProblem | undefined> {
  const tables = await tablesIfAny(deps, `service "${text}" left unchecked`);
  if (tables === undefined) return undefined;
  try {
    resolveService(tables, text, "service");
    return undefined;
  } catch (e) {
    return lookupProblem(e, "service");
  }
}

/** The table entry of a raw integer, when the table is one the user may rely on; used for display and phone numbers. */
export async function countryEntryOf(deps: Deps, id: number): Promise<CountryEntry | undefined> {
  const tables = await tablesOf(deps);
  return tables.source === "unconfirmed" ? undefined : tables.countries.find((c) => c.id === id);
}

export type EnumLabels = Awaited<ReturnType<typeof enumLabels>>;

/**
 * Labels for tables shown to people: "1 (United States)", or "1" when the table does not know the value. Display must
 * never fail a command that already has its data, so a table that cannot be loaded (or is not confirmed for this
 * service) just leaves the bare integers.
 */
export async function enumLabels(deps: Deps) {
  const tables = await tablesIfAny(deps, "country/service tables unavailable for display");
  const usable = tables && tables.source !== "unconfirmed" ? tables : undefined;
  const label = (id: number, name: string | undefined) => (name ? `${id} (${name})` : String(id));
  return {
    country: (id: number) => label(id, usable?.countries.find((c) => c.id === id)?.name),
    service: (id: number) => label(id, usable?.services.find((s) => s.id === id)?.name),
  };
}
