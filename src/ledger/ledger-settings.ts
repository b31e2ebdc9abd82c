// Which store an organization's ledger is in: `local` (files in the state folder, the default) or a team's shared
// PostgreSQL database, and the organization's name there. Read from SHIPCTL_LEDGER and SHIPCTL_ORGANIZATION. The URL
// may carry credentials (postgres://user:password@host/db) or leave them to the standard PG* variables, which the
// `pg` client reads itself; neither is ever printed: `describeLedger` names the host and database only, and
// `redactLedgerSecrets` takes the password out of any text (an error from the driver, a debug line).
import { REDACTED } from "../api/redact.js";
import { UsageError } from "../errors.js";

export type LedgerSettings = { kind: "local" } | { kind: "postgres"; url: string; organization: string };

/** An organization's name in a shared ledger: what a team types once in each profile, so kept plain. */
const ORGANIZATION_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function ledgerSettings(env: NodeJS.ProcessEnv): LedgerSettings {
  const ledger = envValue(env, "SHIPCTL_LEDGER") ?? "local";
  if (ledger === "local") return { kind: "local" };
  if (!/^postgres(ql)?:\/\//i.test(ledger)) {
    throw new UsageError(`SHIPCTL_LEDGER: "${redactUrlPassword(ledger)}" is neither \`local\` nor a postgres:// URL`, {
      hint: "Set SHIPCTL_LEDGER=local (the default) or a PostgreSQL connection URL such as postgres://shipctl@db.example/shipctl (docs/team.md).",
    });
  }
  const organization = envValue(env, "SHIPCTL_ORGANIZATION");
  if (organization === undefined) {
    throw new UsageError("a shared ledger (SHIPCTL_LEDGER) needs the organization's name: SHIPCTL_ORGANIZATION is not set. Nothing was sent.", {
      hint: "Every machine of the team sets the same name, chosen once (for example SHIPCTL_ORGANIZATION=north-gallery); the ledger keeps each organization's entries apart (docs/team.md).",
    });
  }
  if (!ORGANIZATION_NAME.test(organization)) {
    throw new UsageError(`SHIPCTL_ORGANIZATION: "${organization}" is not an organization name`, {
      hint: "Use lower-case letters, digits, '.', '_' and '-' (up to 63 characters), starting with a letter or digit: for example north-gallery.",
    });
  }
  return { kind: "postgres", url: ledger, organization };
}

/** The URL with its password (if any) replaced. */
export function redactUrlPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*:)([^@/?#]*)@/i, `$1${REDACTED}@`);
}

/** "postgres db.gallery.example/shipctl, organization north-gallery": no user, no password. */
export function describeLedger(settings: Extract<LedgerSettings, { kind: "postgres" }>, env: NodeJS.ProcessEnv): string {
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
