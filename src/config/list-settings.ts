// `shipctl config list`: every setting of the resolved profile, its value and where it came from; `shipctl config get
// <key>`: one value on stdout, alone on its line, for scripts (`$(shipctl config get baseUrl)`). The token is shown
// masked ("sand…oken"), never whole; a ledger URL without its password. No network: the tables row shows what is
// stored, not a sandbox probe.
import type { Deps, Source } from "../deps.js";
import { storedTablesFor } from "./profile-tables.js";
import { printJson } from "../output/json.js";
import { maskToken } from "../output/mask-token.js";
import { renderTable, tableWidth } from "../output/table.js";
import { openConfigContext } from "./config-context.js";
import { sourceLabel, type SettingKey } from "./setting-sources.js";
import { resolveLookDays } from "./look-days.js";
import { redactUrlPassword } from "./ledger-setting.js";
import type { ConfigData, StoredProfile } from "./schema.js";
import type { ResolvedSettings } from "./settings.js";
import { envValue } from "../env.js";
import { profileNames } from "./profile-choice.js";

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface Row {
  key: SettingKey | "tables" | "profiles";
  value: string | null;
  /** What --json prints when it differs from `value` (the profile names as a list). */
  jsonValue?: string[] | null;
  source: Source | null;
  label: string;
}

/** A setting whose source is named as `config get` names it (setting-sources.ts). */
function settingRow(key: SettingKey, value: string | null, source: Source | undefined, profile: string): Row {
  return { key, value, source: source ?? null, label: sourceLabel(key, source, profile) };
}

function settingRows(env: NodeJS.ProcessEnv, data: ConfigData, settings: ResolvedSettings): Row[] {
  const profile = settings.profile.value;
  const tables = settings.baseUrl ? storedTablesFor(settings.stored?.tables, settings.baseUrl.value) : undefined;
  const names = profileNames(data);
  // The look's window: as `config get lookDays` resolves it (config/look-days.ts).
  const look = resolveLookDays(env, settings.stored);
  return [
    settingRow("profile", profile, settings.profile.source, profile),
    {
      key: "currentProfile",
      value: data.currentProfile ?? null,
      source: data.currentProfile ? "profile" : null,
      label: data.currentProfile ? "config file" : "not set (profile default is used)",
    },
    settingRow("baseUrl", settings.baseUrl?.value ?? null, settings.baseUrl?.source, profile),
    settingRow("token", settings.token ? maskToken(settings.token.value) : null, settings.token?.source, profile),
    settingRow("stripLocation", String(settings.stored?.stripLocation ?? false), settings.stored?.stripLocation === undefined ? "default" : "profile", profile),
    settingRow("lookDays", String(look.days), look.source, profile),
    ...ledgerRows(env, settings.stored, profile),
    {
      key: "caFile",
      value: settings.stored?.caFile ?? null,
      source: settings.stored?.caFile === undefined ? null : "profile",
      label: settings.stored?.caFile === undefined ? "not set (Node's trusted CAs only)" : `profile ${profile}`,
    },
    {
      key: "tables",
      value: tables ? `${tables.source} (${tables.countries.length} countries, ${tables.services.length} services)` : null,
      source: tables ? "profile" : null,
      label: tables ? `profile ${profile}` : "none stored (a sandbox provides its own; see `shipctl config tables`)",
    },
    { key: "profiles", value: names.length ? names.join(", ") : null, jsonValue: names, source: names.length ? "profile" : null, label: "config file" },
  ];
}

export async function listSettings(deps: Deps): Promise<void> {
  const { store, data, settings } = await openConfigContext(deps);
  const profile = settings.profile.value;
  const rows = settingRows(deps.env, data, settings);

  if (deps.globals.json) {
    // The settings are named as `config get`/`config set` take them (baseUrl), and as JSON keys in snake_case.
    const settingsJson = Object.fromEntries(rows.map((r) => [snakeCase(r.key), { value: r.jsonValue ?? r.value, source: r.source }]));
    printJson(deps.io, { profile, config_path: store.path, settings: settingsJson });
    return;
  }
  deps.io.out(
    renderTable(
      [
        { header: "KEY", value: (r) => r.key, keep: true },
        { header: "VALUE", value: (r) => r.value ?? "-" },
        { header: "SOURCE", value: (r) => r.label },
      ],
      rows,
      { theme: deps.theme.out, width: tableWidth(deps.io) },
    ),
  );
}

/** The ledger and organization settings, the URL's password hidden. */
function ledgerRows(env: NodeJS.ProcessEnv, stored: StoredProfile | undefined, profile: string): Row[] {
  const row = (key: "ledger" | "organization", envName: string, fallback: string | null): Row => {
    const fromEnv = envValue(env, envName);
    const value = fromEnv ?? stored?.[key] ?? fallback;
    const source = fromEnv !== undefined ? "env" : stored?.[key] !== undefined ? "profile" : fallback === null ? undefined : "default";
    return settingRow(key, value === null ? null : redactUrlPassword(value), source, profile);
  };
  return [row("ledger", "SHIPCTL_LEDGER", "local"), row("organization", "SHIPCTL_ORGANIZATION", null)];
}

/** `config get`: the value as `config list` shows it; with --json {key, value, source, profile}. */
export async function printSetting(deps: Deps, key: SettingKey): Promise<void> {
  const { data, settings } = await openConfigContext(deps);
  const profile = settings.profile.value;
  const { value, source } = settingRows(deps.env, data, settings).find((r) => r.key === key)!;
  if (deps.globals.json) {
    printJson(deps.io, { key, value, source, profile });
    return;
  }
  if (value === null) {
    deps.io.err(`${key} is not set${key === "currentProfile" ? "" : ` for profile ${profile}`}\n`);
    return;
  }
  deps.io.out(`${value}\n`);
  if (deps.io.stderrIsTTY) deps.io.err(deps.theme.err.dim(`(${sourceLabel(key, source ?? undefined, profile)})\n`));
}
