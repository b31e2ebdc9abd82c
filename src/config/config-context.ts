// What every `shipctl config ...` command starts from: the config file and the settings resolved from it.
import type { Deps } from "../deps.js";
import { resolveProfileName, resolveSettings, type ResolvedSettings, type SettingsInput } from "./settings.js";
import { openConfigStore, type ConfigStore } from "./store.js";
import type { ConfigData } from "./schema.js";
import { UsageError } from "../errors.js";
import { profileFlag } from "./profile-name.js";

/** The config file as read and the settings resolved from it; their notes ("/api/v1 was removed...") go to stderr. */
export async function openConfigContext(deps: Pick<SettingsInput, "env" | "globals"> & { io: { err(text: string): void } }) {
  const store = await openConfigStore(deps.env);
  const data = store.read();
  const settings = resolveSettings({ globals: deps.globals, env: deps.env, data, configPath: store.path });
  for (const note of settings.notes) deps.io.err(note);
  return { store, data, settings };
}

/** The config file as read, and the name of the profile this run uses (--profile, SHIPCTL_PROFILE, currentProfile, "default"). */
export async function profileInUse(deps: Deps): Promise<{ store: ConfigStore; data: ConfigData; profile: string }> {
  const store = await openConfigStore(deps.env);
  const data = store.read();
  return { store, data, profile: resolveProfileName({ globals: deps.globals, env: deps.env, data, configPath: store.path }).value };
}

/** The profile's stripLocation setting (`config set stripLocation true`), false when it has none. */
export async function profileStripsLocation(deps: Deps): Promise<boolean> {
  const store = await openConfigStore(deps.env);
  return resolveSettings({ globals: deps.globals, env: deps.env, data: store.read(), configPath: store.path }).stored?.stripLocation ?? false;
}

/** Tables belong to one service: commands that store them need to know which. */
export function requireBaseUrl(settings: ResolvedSettings): string {
  if (settings.baseUrl) return settings.baseUrl.value;
  const flag = profileFlag(settings.profile.value);
  throw new UsageError(`profile "${settings.profile.value}" has no base URL, and tables belong to one service`, {
    hint: `run \`shipctl login${flag}\` or \`shipctl config set baseUrl URL${flag}\` first, or pass --base-url`,
  });
}
