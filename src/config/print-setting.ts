// `shipctl config get <key>`: one value on stdout, alone on its line, for scripts (`$(shipctl config get baseUrl)`).
// The token is only ever printed masked.
import type { Deps, Source } from "../deps.js";
import { printJson } from "../output/json.js";
import { maskToken } from "../output/mask-token.js";
import { openConfigContext } from "./config-context.js";
import { sourceLabel, type SettingKey } from "./setting-sources.js";
import { resolveLookDays } from "./look-days.js";
import { ledgerRows } from "./ledger-rows.js";

export async function printSetting(deps: Deps, key: SettingKey): Promise<void> {
  const { data, settings } = await openConfigContext(deps);
  const profile = settings.profile.value;
  let value: string | null;
  let source: Source | null;
  switch (key) {
    case "profile":
      ({ value, source } = settings.profile);
      break;
    case "currentProfile":
      value = data.currentProfile ?? null;
      source = value === null ? null : "profile";
      break;
    case "baseUrl":
      value = settings.baseUrl?.value ?? null;
      source = settings.baseUrl?.source ?? null;
      break;
    case "token":
      value = settings.token ? maskToken(settings.token.value) : null;
      source = settings.token?.source ?? null;
      break;
    case "caFile":
      value = settings.stored?.caFile ?? null;
      source = value === null ? null : "profile";
      break;
    case "lookDays": {
      const look = resolveLookDays(deps.env, settings.stored);
      value = String(look.days);
      source = look.source;
      break;
    }
    case "ledger":
    case "organization": {
      const row = ledgerRows(deps.env, settings.stored, profile).find((r) => r.key === key)!;
      ({ value, source } = row);
      break;
    }
    case "stripLocation":
      // Unset means what report upload does then, false, as `config list` shows it.
      value = String(settings.stored?.stripLocation ?? false);
      source = settings.stored?.stripLocation === undefined ? "default" : "profile";
      break;
  }
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
