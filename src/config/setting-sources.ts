// How `config list` and `config get` name where a value came from, e.g. "env SHIPCTL_TOKEN", "flag --base-url".
import type { Source } from "../deps.js";

export type SettingKey = "profile" | "currentProfile" | "baseUrl" | "token" | "stripLocation" | "caFile" | "lookDays" | "ledger" | "organization";

/** In the order `config get` names them. */
export const SETTING_KEYS: readonly SettingKey[] = ["baseUrl", "token", "profile", "currentProfile", "stripLocation", "caFile", "lookDays", "ledger", "organization"];

const FLAG: Partial<Record<SettingKey, string>> = { profile: "--profile", baseUrl: "--base-url" };
const ENV: Partial<Record<SettingKey, string>> = { profile: "SHIPCTL_PROFILE", baseUrl: "SHIPCTL_BASE_URL", token: "SHIPCTL_TOKEN", lookDays: "SHIPCTL_LOOK_DAYS", ledger: "SHIPCTL_LEDGER", organization: "SHIPCTL_ORGANIZATION" };

export function sourceLabel(key: SettingKey, source: Source | undefined, profile: string): string {
  switch (source) {
    case "flag":
      return `flag ${FLAG[key] ?? ""}`.trim();
    case "env":
      return `env ${ENV[key] ?? ""}`.trim();
    case "profile":
      return key === "profile" || key === "currentProfile" ? "config file (currentProfile)" : `profile ${profile}`;
    case "default":
      return "default";
    default:
      return "not set";
  }
}

/** Accepts baseUrl, base-url, base_url, BASEURL, ca-file...; undefined for anything else. */
export function settingKey(input: string): SettingKey | undefined {
  const key = input.toLowerCase().replace(/[\s_-]/g, "");
  return SETTING_KEYS.find((k) => k.toLowerCase() === key);
}
