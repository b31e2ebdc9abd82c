// Deps.connection(): the profile, base URL and token for this run, resolved flag > environment > profile, with the
// source of each, and the Country/Service tables loaded on first use.
import { AuthError } from "../errors.js";
import type { ResolvedSettings } from "./settings.js";
import { openConfigContext } from "./config-context.js";
import { profileFlag } from "./profile-name.js";
import { loadTables, type TablesRun } from "./profile-tables.js";
import type { Tables } from "../contract/index.js";
import type { Connection } from "../deps.js";
import { resolveLedger } from "./ledger-setting.js";

/** What resolving a connection needs of a run (Deps gives it): what the tables need, and the flags. */
export type ConnectionInputs = TablesRun & { globals: { profile?: string; baseUrl?: string } };

export async function resolveConnection(deps: ConnectionInputs): Promise<Connection> {
  const { store, settings } = await openConfigContext(deps);
  const { baseUrl, token } = requireCredentials(settings);
  let tables: Promise<Tables> | undefined;
  const caFile = settings.stored?.caFile;
  const ledger = resolveLedger(deps.env, settings.stored, settings.profile.value);
  return {
    profile: settings.profile.value,
    baseUrl: baseUrl.value,
    token: token.value,
    sources: { profile: settings.profile.source, baseUrl: baseUrl.source, token: token.source },
    ...(caFile !== undefined ? { caFile } : {}),
    ledger,
    tables: () => {
      const flag = profileFlag(settings.profile.value);
      const place = { profile: settings.profile.value, baseUrl: baseUrl.value, token: token.value, caFile };
      tables ??= loadTables({ ...place, store, run: deps }).then((t) => (flag ? { ...t, profileFlag: flag } : t));
      return tables;
    },
  };
}

/** A profile named (--profile, SHIPCTL_PROFILE, currentProfile) that is not saved, unless the environment gives both settings: AuthError (exit 4). */
export function requireProfile(settings: ResolvedSettings): void {
  const { profile, stored, baseUrl, token } = settings;
  if (!stored && profile.source !== "default" && (!baseUrl || !token)) {
    throw new AuthError(`not authenticated: there is no profile "${profile.value}"`, {
      hint: `run \`shipctl login${profileFlag(profile.value)}\` (or set SHIPCTL_BASE_URL and SHIPCTL_TOKEN)`,
    });
  }
}

/** Both a base URL and a token, or an AuthError (exit 4) that says which is missing and how to log in. */
export function requireCredentials(settings: ResolvedSettings): Required<Pick<ResolvedSettings, "baseUrl" | "token">> {
  requireProfile(settings);
  const { profile, baseUrl, token } = settings;
  const flag = profileFlag(profile.value);
  if (baseUrl && !token && settings.withheldToken) {
    throw new AuthError(
      `no token for ${new URL(baseUrl.value).origin}: the token saved in profile "${profile.value}" belongs to ` +
        `${settings.withheldToken.savedFor} and is never sent to another service`,
      { hint: `set SHIPCTL_TOKEN for ${baseUrl.value}, or save one with \`shipctl login --base-url ${baseUrl.value}${flag}\`` },
    );
  }
  const missing = [!baseUrl && "base URL", !token && "token"].filter(Boolean).join(" and ");
  if (!baseUrl || !token) {
    throw new AuthError(`not authenticated: profile "${profile.value}" has no ${missing}`, {
      hint: `run \`shipctl login${flag}\` (or set SHIPCTL_BASE_URL and SHIPCTL_TOKEN)`,
    });
  }
  return { baseUrl, token };
}
