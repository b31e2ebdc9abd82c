// Which Country and Service tables apply to a connection. In order: tables the profile keeps for this very base URL
// (sandbox, imported or confirmed); else the sandbox's own when the service is a sandbox (then kept in the profile);
// else none, with source "unconfirmed": names and codes are refused and only raw integers pass. A table the user
// has not imported or confirmed is never applied to a real service (contract-notes, "Enumerations").
import type { CountryEntry, ServiceEntry, Tables, TablesSource } from "../contract/index.js";
import type { ConfigStore } from "./store.js";
import type { StoredTables } from "./schema.js";
import { profileOf } from "./profile-name.js";
import type { ProbeOptions, ProbeResult } from "./tables-probe.js";

export const UNCONFIRMED_TABLES: Tables = { countries: [], services: [], source: "unconfirmed" };

export interface TablesContext {
  profile: string;
  baseUrl: string;
  token?: string;
  store: ConfigStore;
  /** Where to say that a sandbox answered with tables shipctl cannot read. */
  warn: (text: string) => void;
  debug?: (line: string) => void;
  signal?: AbortSignal;
  /** Replaceable in tests. */
  probe?: (baseUrl: string, options: ProbeOptions) => Promise<ProbeResult>;
}

/** The profile's stored tables, if they were stored for `baseUrl`. */
export function storedTablesFor(stored: StoredTables | undefined, baseUrl: string): Tables | undefined {
  if (!stored || stored.baseUrl !== baseUrl) return undefined;
  return { countries: stored.countries, services: stored.services, source: stored.source, ...(stored.applyMaxMs !== undefined ? { applyMaxMs: stored.applyMaxMs } : {}) };
}

export async function loadTables(ctx: TablesContext): Promise<Tables> {
  const data = ctx.store.read();
  const profile = profileOf(data, ctx.profile);
  const stored = storedTablesFor(profile?.tables, ctx.baseUrl);
  if (stored) return stored;

  // The probe (and its schemas) is loaded only when tables are first needed and the profile has none stored.
  const probe = ctx.probe ?? (await import("./tables-probe.js")).probeSandboxTables;
  const answer = await probe(ctx.baseUrl, { token: ctx.token, signal: ctx.signal, debug: ctx.debug });
  if (!answer.sandbox) {
    if (answer.warning) ctx.warn(`Warning: ${answer.warning}\n`);
    return UNCONFIRMED_TABLES;
  }
  const tables = { countries: answer.countries, services: answer.services, source: "sandbox" as const, applyMaxMs: answer.applyMaxMs };
  // Kept only when the profile itself points at this sandbox: a one-off --base-url must not rewrite a profile.
  if (profile?.baseUrl === ctx.baseUrl) await saveTables(ctx.store, ctx.profile, ctx.baseUrl, tables);
  return tables;
}

/** Stores tables in a profile for a base URL (creating the profile if needed). */
export async function saveTables(
  store: ConfigStore,
  profile: string,
  baseUrl: string,
  tables: { countries: readonly CountryEntry[]; services: readonly ServiceEntry[]; source: Exclude<TablesSource, "unconfirmed">; applyMaxMs?: number },
): Promise<void> {
  await store.update((data) => {
    const current = profileOf(data, profile) ?? {};
    data.profiles[profile] = {
      ...current,
      tables: {
        baseUrl,
        source: tables.source,
        countries: tables.countries.map(copyEntry),
        services: tables.services.map(copyEntry),
        ...(tables.applyMaxMs !== undefined ? { applyMaxMs: tables.applyMaxMs } : {}),
      },
    };
  });
}

/** A mutable copy for the file (entries from the contract's tables are readonly). */
function copyEntry<T extends { aliases?: readonly string[] }>(entry: T): Omit<T, "aliases"> & { aliases?: string[] } {
  const { aliases, ...rest } = entry;
  return aliases ? { ...rest, aliases: [...aliases] } : rest;
}
