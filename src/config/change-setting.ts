// What `shipctl config set` changes: the profile's baseUrl, stripLocation or caFile, or the profile used by default. The values come checked
// from the command line (commands/config/config-set.ts). And `shipctl profile use`, and `shipctl logout`, which
// forgets the profile's token.
import type { Deps } from "../deps.js";
import { strippedPrefixNote, sameOrigin, type NormalisedBaseUrl } from "./base-url.js";
import { envValue } from "../env.js";
import { profileInUse } from "./config-context.js";
import { openConfigStore } from "./store.js";
import type { StoredProfile } from "./schema.js";
import { profileFlag, profileOf } from "./profile-name.js";
import { requireSavedProfile } from "./profile-choice.js";
import { printJson } from "../output/json.js";
import { resolve } from "node:path";
import { readCaFile } from "../api/network.js";

/** `normalised`: the command line's URL, already checked (commands/config/config-set.ts). */
export async function setBaseUrl(deps: Deps, normalised: NormalisedBaseUrl): Promise<void> {
  if (normalised.strippedApiPrefix) deps.io.err(strippedPrefixNote("baseUrl", normalised.url));
  const url = normalised.url;
  const { store, profile } = await profileInUse(deps);
  let droppedToken = false;
  await store.update((d) => {
    const current = profileOf(d, profile) ?? {};
    const next = { ...current, baseUrl: url };
    // A token belongs to the service that issued it: never send it to another host because a URL was edited.
    if (next.token && current.baseUrl && !sameOrigin(current.baseUrl, url)) {
      delete next.token;
      droppedToken = true;
    }
    d.profiles[profile] = next;
  });
  deps.io.alert(`${deps.theme.err.ok("✓")} Set baseUrl of profile ${profile} to ${url}\n`);
  if (droppedToken) deps.io.err(`The saved token was for another host and has been removed: run \`shipctl login${profileFlag(profile)}\`.\n`);
  if (deps.globals.baseUrl !== undefined || envValue(deps.env, "SHIPCTL_BASE_URL") !== undefined) {
    deps.io.err(`Note: --base-url or SHIPCTL_BASE_URL overrides this for runs that give it.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { profile, key: "baseUrl", value: url, token_removed: droppedToken });
}

/** The default of `report upload --strip-location` for the profile in use. */
export async function setStripLocation(deps: Deps, value: boolean): Promise<void> {
  const what = value ? "removes the GPS position from every photo (--keep-location to keep it)" : "keeps the GPS position as the photos have it (--strip-location to remove it)";
  await setInProfile(deps, "stripLocation", value, (profile) => `Profile ${profile}: report upload ${what}`);
}

/** How many days back the look before a create reads (config/look-days.ts); 0 turns it off. */
export async function setLookDays(deps: Deps, days: number): Promise<void> {
  const what = days === 0 ? "creates without the look at the service" : `does not send what another machine created in the last ${days} day${days === 1 ? "" : "s"}`;
  await setInProfile(deps, "lookDays", days, (profile) => `Profile ${profile}: shipment create ${what}`, "SHIPCTL_LOOK_DAYS");
}

/**
 * The profile's CA file, checked (readable, PEM certificates) and stored as an absolute path, so it means the same
 * file from any folder; "" removes it.
 */
export async function setCaFile(deps: Deps, path: string): Promise<void> {
  const { store, profile } = await profileInUse(deps);
  const file = path === "" ? undefined : resolve(deps.cwd, path);
  const pem = file === undefined ? "" : readCaFile(file, "caFile");
  const certificates = pem.split("-----BEGIN CERTIFICATE-----").length - 1;
  await store.update((d) => {
    const { caFile: _old, ...rest } = profileOf(d, profile) ?? {};
    d.profiles[profile] = file === undefined ? rest : { ...rest, caFile: file };
  });
  const what = file === undefined ? "trusts Node's certificate authorities only" : `also trusts the ${certificates} CA certificate${certificates === 1 ? "" : "s"} of ${file}`;
  deps.io.alert(`${deps.theme.err.ok("✓")} Profile ${profile} ${what}\n`);
  if (deps.globals.json) printJson(deps.io, { profile, key: "caFile", value: file ?? null });
}

/** The profile's ledger (local, or a PostgreSQL URL without its password) or organization name, checked already. */
export async function setLedger(deps: Deps, key: "ledger" | "organization", value: string): Promise<void> {
  const env = key === "ledger" ? "SHIPCTL_LEDGER" : "SHIPCTL_ORGANIZATION";
  await setInProfile(deps, key, value, (profile) => `Set ${key} of profile ${profile} to ${value}`, env);
}

/** `name`: already checked to be a valid profile name. */
export async function setCurrentProfile(deps: Deps, name: string): Promise<void> {
  const store = await openConfigStore(deps.env);
  const data = await store.update((d) => {
    d.currentProfile = name;
  });
  deps.io.alert(`${deps.theme.err.ok("✓")} Commands now use profile ${name} by default\n`);
  if (!profileOf(data, name)) deps.io.err(`Profile ${name} has no settings yet: run \`shipctl login --profile ${name}\`.\n`);
  if (envValue(deps.env, "SHIPCTL_PROFILE") !== undefined) deps.io.err("Note: SHIPCTL_PROFILE is set in this environment and overrides it.\n");
  if (deps.globals.json) printJson(deps.io, { key: "currentProfile", value: name });
}

/** `shipctl profile use NAME`: as `config set currentProfile NAME`, but only to a profile the config file has. */
export async function useProfile(deps: Deps, name: string): Promise<void> {
  const store = await openConfigStore(deps.env);
  requireSavedProfile(store.read(), name, "use");
  await setCurrentProfile(deps, name);
}

/**
 * Sets one field of the profile this run uses and says so (`done`, given the profile's name), with a note when
 * `overriddenBy`, an environment variable, is set and wins over it.
 */
async function setInProfile<K extends keyof StoredProfile>(deps: Deps, key: K, value: StoredProfile[K], done: (profile: string) => string, overriddenBy?: string): Promise<void> {
  const { store, profile } = await profileInUse(deps);
  await store.update((d) => {
    d.profiles[profile] = { ...(profileOf(d, profile) ?? {}), [key]: value };
  });
  deps.io.alert(`${deps.theme.err.ok("✓")} ${done(profile)}\n`);
  if (overriddenBy !== undefined && envValue(deps.env, overriddenBy) !== undefined) deps.io.err(`Note: ${overriddenBy} overrides this for runs that give it.\n`);
  if (deps.globals.json) printJson(deps.io, { profile, key, value });
}

/**
 * `shipctl logout`: forgets the profile's token and keeps its base URL (logging in again asks only for a token).
 * Succeeds when there was nothing to forget: the end state the user asked for holds either way.
 */
export async function removeToken(deps: Deps): Promise<void> {
  const { store, data, profile } = await profileInUse(deps);
  const saved = profileOf(data, profile);
  const hadToken = Boolean(saved?.token);
  if (hadToken) {
    await store.update((d) => {
      const p = profileOf(d, profile);
      if (p) delete p.token;
    });
    const kept = saved?.baseUrl ? ` (base URL ${saved.baseUrl} kept)` : "";
    deps.io.alert(`${deps.theme.err.ok("✓")} Logged out of profile ${profile}: token removed${kept}\n`);
  } else {
    deps.io.alert(`Profile ${profile} was not logged in: nothing to remove.\n`);
  }
  if (envValue(deps.env, "SHIPCTL_TOKEN") !== undefined) {
    deps.io.err(`${deps.theme.err.warn("Note:")} SHIPCTL_TOKEN is still set in this environment, and commands will use it.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { profile, logged_out: hadToken });
}
