// The ledger and organization settings as `config list` and `config get` show them: the URL's password hidden.
import type { Source } from "../deps.js";
import { redactUrlPassword } from "./ledger-setting.js";
import type { StoredProfile } from "./schema.js";
import { sourceLabel } from "./setting-sources.js";
import { envValue } from "../env.js";

export interface LedgerRow {
  key: "ledger" | "organization";
  value: string | null;
  source: Source | null;
  label: string;
}

export function ledgerRows(env: NodeJS.ProcessEnv, stored: StoredProfile | undefined, profile: string): LedgerRow[] {
  const row = (key: LedgerRow["key"], envName: string, fallback: string | null): LedgerRow => {
    const fromEnv = envValue(env, envName);
    const value = fromEnv ?? stored?.[key] ?? fallback;
    const source: Source | null = fromEnv !== undefined ? "env" : stored?.[key] !== undefined ? "profile" : fallback === null ? null : "default";
    return { key, value: value === null ? null : redactUrlPassword(value), source, label: sourceLabel(key, source ?? undefined, profile) };
  };
  return [row("ledger", "SHIPCTL_LEDGER", "local"), row("organization", "SHIPCTL_ORGANIZATION", null)];
}
