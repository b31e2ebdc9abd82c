// How a shared ledger is named in messages, and its secrets kept out of them. The settings themselves are resolved
// with the profile's (config/ledger-setting.ts). Neither the URL's password nor PGPASSWORD is ever printed:
// `describeLedger` names the host and database only, and `redactLedgerSecrets` takes the password out of any text
// (an error from the driver, a debug line).
import { REDACTED } from "../api/redact.js";
import { redactUrlPassword } from "../config/ledger-setting.js";
import type { LedgerSettings } from "../deps.js";

export type SharedSettings = Extract<LedgerSettings, { kind: "postgres" }>;

/** "postgres db.gallery.example/shipctl, organization north-gallery": no user, no password. */
export function describeLedger(settings: SharedSettings, env: NodeJS.ProcessEnv): string {
  let host = env.PGHOST ?? "localhost";
  let database = env.PGDATABASE ?? "";
  try {
    const u = new URL(settings.url);
    const queryHost = u.searchParams.get("host");
    host = u.hostname !== "" ? decodeURIComponent(u.hostname) + (u.port ? `:${u.port}` : "") : (queryHost ?? host);
    const path = decodeURIComponent(u.pathname.replace(/^\//, ""));
    if (path !== "") database = path;
  } catch {
    // An unparsable URL is left to the driver to refuse; the description keeps the defaults.
  }
  return `postgres ${host}${database ? `/${database}` : ""}, organization ${settings.organization}`;
}

/** Takes the ledger's password (from the URL or PGPASSWORD) out of a text, in its plain and URL-encoded forms. */
export function redactLedgerSecrets(text: string, settings: LedgerSettings, env: NodeJS.ProcessEnv): string {
  if (settings.kind !== "postgres") return text;
  const secrets = new Set<string>();
  const fromUrl = /^[a-z][a-z0-9+.-]*:\/\/[^:/@?#]*:([^@/?#]*)@/i.exec(settings.url)?.[1];
  for (const s of [fromUrl, env.PGPASSWORD]) {
    if (!s) continue;
    secrets.add(s);
    try {
      secrets.add(decodeURIComponent(s));
    } catch {
      // not URL-encoded
    }
    secrets.add(encodeURIComponent(s));
  }
  let out = redactUrlPassword(text);
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) if (s.length > 0) out = out.split(s).join(REDACTED);
  return out;
}
