// The config file as shell completion reads it, at every TAB: profile names and the tables kept in them. store.ts
// validates each read with the zod schema, whose loading alone costs more than the rest of a completion; and it
// creates the config folder. This reads the JSON only, creates nothing, and keeps only profiles shaped as schema.ts
// says where completion looks (tables with string names and codes): a file it cannot use gives no values, never an
// error, since a TAB has nowhere to show one. Commands never read the file this way.
import { readFileSync } from "node:fs";
import { configFilePath } from "./paths.js";
import { isRecord } from "../contract/json.js";
import type { ConfigData, StoredProfile } from "./schema.js";

export function peekConfig(env: NodeJS.ProcessEnv): ConfigData {
  let raw: unknown;
  try {
    raw = parseConfig(readFileSync(configFilePath(env), "utf8"));
  } catch {
    return { profiles: {} };
  }
  if (!isRecord(raw)) return { profiles: {} };
  const profiles: Record<string, StoredProfile> = {};
  for (const [name, profile] of Object.entries(isRecord(raw.profiles) ? raw.profiles : {})) {
    if (isRecord(profile)) profiles[name] = usable(profile);
  }
  return { ...(typeof raw.currentProfile === "string" ? { currentProfile: raw.currentProfile } : {}), profiles };
}

/**
 * The config file's JSON, for commands (store.ts) and completion. Edited by hand on Windows (Notepad++'s "UTF-8-BOM",
 * PowerShell 5.1's Set-Content), it may start with a byte-order mark, which JSON.parse refuses.
 */
export function parseConfig(text: string): Record<string, unknown> {
  return JSON.parse(text.replace(/^\uFEFF/, "")) as Record<string, unknown>;
}

/** The profile with only what completion reads, each part kept only when it has the stored shape. */
function usable(profile: Record<string, unknown>): StoredProfile {
  const { baseUrl, tables } = profile;
  const kept: StoredProfile = typeof baseUrl === "string" ? { baseUrl } : {};
  if (!isRecord(tables) || typeof tables.baseUrl !== "string") return kept;
  const { countries, services } = tables;
  const named = (entry: unknown, keys: string[]) => isRecord(entry) && typeof entry.id === "number" && keys.every((k) => typeof entry[k] === "string");
  if (!Array.isArray(countries) || !countries.every((c) => named(c, ["alpha2", "alpha3", "name"]))) return kept;
  if (!Array.isArray(services) || !services.every((s) => named(s, ["name"]))) return kept;
  const source = tables.source === "sandbox" || tables.source === "imported" || tables.source === "confirmed" ? tables.source : undefined;
  if (!source) return kept;
  return { ...kept, tables: { baseUrl: tables.baseUrl, source, countries, services } as NonNullable<StoredProfile["tables"]> };
}
