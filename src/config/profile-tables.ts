// Which Country and Service tables apply to a connection. In order: tables the profile keeps for this very base URL
// (sandbox, imported or confirmed); else the sandbox's own when the service is a sandbox (then kept in the profile);
// else none, with source "unconfirmed": names and codes are refused and only raw integers pass. A table the user
// has not imported or confirmed is never applied to a real service (contract-notes, "Enumerations").
// A service that answered as no sandbox does is remembered as such for its base URL, and not asked again before each
// command: only `login` and the `config tables` commands ask again (askAgain).
import type { CountryEntry, ServiceEntry, Tables, TablesSource } from "../contract/index.js";
import type { ConfigStore } from "./store.js";
import type { StoredProfile, StoredTables } from "./schema.js";
import { profileOf } from "./profile-name.js";
import type { ProbeOptions, ProbeResult } from "./tables-probe.js";

export const UNCONFIRMED_TABLES: Tables = { countries: [], services: [], source: "unconfirmed" };

/**
 * What of a run's deps the tables use (the connection is resolved from no more than this): its stderr (a sandbox that
 * answered with tables shipctl cannot read is said there), --debug, Ctrl-C, and the proxy variables, so the sandbox
 * probe goes the way every request of the run goes.
 */
export interface TablesRun {
  env: NodeJS.ProcessEnv;
  io: { err(text: string): void };
  debug(line: string): void;
  signal?: AbortSignal;
}

/** Where the tables are (the profile and its service, with the profile's CA file), and the run asking. */
export interface TablesContext {
  profile: string;
  baseUrl: string;
  token?: string;
  caFile?: string;
  store: ConfigStore;
  run: TablesRun;
  /** Ask the service even when the profile remembers it is not a sandbox (`config tables` commands). */
  askAgain?: boolean;
  /** Replaceable in tests. */
  probe?: (baseUrl: string, options: ProbeOptions) => Promise<ProbeResult>;
}

/** The profile's stored tables, if they were stored for `baseUrl`. */
export function storedTablesFor(stored: StoredTables | undefined, baseUrl: string): Tables | undefined {
  if (stored?.baseUrl !== baseUrl) return undefined;
  const { baseUrl: _for, ...tables } = stored;
  return tables;
}

export async function loadTables(ctx: TablesContext): Promise<Tables> {
  const profile = profileOf(ctx.store.read(), ctx.profile);
  const stored = storedTablesFor(profile?.tables, ctx.baseUrl);
  if (stored) return stored;
  if (!ctx.askAgain && sandboxKnown(profile, ctx.baseUrl) === false) return UNCONFIRMED_TABLES;

  const answer = await probeAndRemember(ctx);
  if (!answer.sandbox) {
    if (answer.warning) ctx.run.io.err(`Warning: ${answer.warning}\n`);
    return UNCONFIRMED_TABLES;
  }
  return { countries: answer.countries, services: answer.services, source: "sandbox", applyMaxMs: answer.applyMaxMs };
}

/**
 * Asks the service at ctx.baseUrl whether it is a sandbox, and keeps the answer (its tables, or that it is none) in
 * the profile when the profile itself points there: a one-off --base-url must not rewrite a profile.
 */
export async function probeAndRemember(ctx: TablesContext): Promise<ProbeResult> {
  // The probe (and its schemas) is loaded only when it is asked.
  const probe = ctx.probe ?? (await import("./tables-probe.js")).probeSandboxTables;
  const { run, token } = ctx;
  const network = { env: run.env, caFile: ctx.caFile };
  const answer = await probe(ctx.baseUrl, { token, signal: run.signal, debug: (line) => run.debug(line), network });
  const learnt = answer.sandbox || answer.definite === true;
  if (learnt && profileOf(ctx.store.read(), ctx.profile)?.baseUrl === ctx.baseUrl) {
    await ctx.store.update((d) => {
      const current = profileOf(d, ctx.profile);
      if (current) rememberProbe(current, ctx.baseUrl, answer);
    });
  }
  return answer;
}

/** Keeps in `profile` what a probe of `baseUrl` taught: a sandbox's own tables, or that the service is no sandbox. */
export function rememberProbe(profile: StoredProfile, baseUrl: string, answer: ProbeResult): void {
  if (answer.sandbox) {
    profile.tables = storedTables(baseUrl, { ...answer, source: "sandbox" });
    delete profile.notSandbox;
  } else if (answer.definite) {
    profile.notSandbox = { baseUrl, reason: answer.reason };
  }
}

/**
 * What the profile knows, without asking: true when it keeps a sandbox's tables for `baseUrl`, false when the service
 * there answered as no sandbox does, undefined when it was never asked (or answered nothing lasting).
 */
export function sandboxKnown(profile: StoredProfile | undefined, baseUrl: string | undefined): boolean | undefined {
  if (!profile || baseUrl === undefined) return undefined;
  if (profile.tables?.baseUrl === baseUrl && profile.tables.source === "sandbox") return true;
  if (profile.notSandbox?.baseUrl === baseUrl) return false;
  return undefined;
}

type TablesToStore = { countries: readonly CountryEntry[]; services: readonly ServiceEntry[]; source: Exclude<TablesSource, "unconfirmed">; applyMaxMs?: number };

/** Stores tables in a profile for a base URL (creating the profile if needed). */
export async function saveTables(store: ConfigStore, profile: string, baseUrl: string, tables: TablesToStore): Promise<void> {
  await store.update((data) => {
    data.profiles[profile] = { ...(profileOf(data, profile) ?? {}), tables: storedTables(baseUrl, tables) };
  });
}

/** Tables as a profile keeps them for a base URL: the one shape, whether imported, confirmed or a sandbox's own. */
function storedTables(baseUrl: string, tables: TablesToStore): StoredTables {
  return {
    baseUrl,
    source: tables.source,
    countries: tables.countries.map(copyEntry),
    services: tables.services.map(copyEntry),
    ...(tables.applyMaxMs !== undefined ? { applyMaxMs: tables.applyMaxMs } : {}),
  };
}

/** A mutable copy for the file (entries from the contract's tables are readonly). */
function copyEntry<T extends { aliases?: readonly string[] }>(entry: T): Omit<T, "aliases"> & { aliases?: string[] } {
  const { aliases, ...rest } = entry;
  return aliases ? { ...rest, aliases: [...aliases] } : rest;
}
