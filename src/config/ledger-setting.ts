// Which store an organization's ledger is in (ledger/open-store.ts opens it): `local` (files in the state folder, the
// default) or a team's PostgreSQL database, and the organization's name there. Each from the environment
// (SHIPCTL_LEDGER, SHIPCTL_ORGANIZATION) or the profile (`config set ledger URL`, `config set organization NAME`), the
// environment first. The URL may carry a password (postgres://user:password@host/db), only from the environment: a
// profile's URL is typed on a command line (shell history, `ps`), so its password goes in PGPASSWORD or ~/.pgpass,
// which the `pg` client reads itself. Never printed: redactUrlPassword takes it out.
import { REDACTED } from "../api/redact.js";
import { envValue } from "../env.js";
import { UsageError } from "../errors.js";
import type { LedgerSettings } from "../deps.js";
import type { StoredProfile } from "./schema.js";
import { profileFlag } from "./profile-name.js";


export const LOCAL_LEDGER: LedgerSettings = { kind: "local" };

/** An organization's name in a shared ledger: what a team types once on each machine, so kept plain. */
const ORGANIZATION_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

// The password runs to the last "@" before the host, as URL parsers (and pg) read an unencoded "@" in it.
const PASSWORD_IN_URL = /^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*:)([^/?#]*)@/i;

/** Why `value` is neither `local` nor a postgres:// URL; undefined when it is one. */
export function ledgerUrlProblem(value: string): string | undefined {
  if (value === "local" || /^postgres(ql)?:\/\/./i.test(value)) return undefined;
  return `"${redactUrlPassword(value)}" is neither \`local\` nor a postgres:// URL`;
}

export function organizationProblem(value: string): string | undefined {
  return ORGANIZATION_NAME.test(value) ? undefined : `"${value}" is not an organization name: use lower-case letters, digits, '.', '_' and '-' (up to 63 characters), starting with a letter or digit, for example north-gallery`;
}

/** Whether a URL carries a password (refused in a profile: see the top of this file). */
export function hasUrlPassword(url: string): boolean {
  return (PASSWORD_IN_URL.exec(url)?.[2] ?? "") !== "";
}

/** The URL with its password (if any) replaced. */
export function redactUrlPassword(url: string): string {
  return url.replace(PASSWORD_IN_URL, `$1${REDACTED}@`);
}

/**
 * The ledger a run uses: env before profile; a shared one needs a valid organization name. Where each setting came
 * from is `config list`'s to say (list-settings.ts).
 */
export function resolveLedger(env: NodeJS.ProcessEnv, stored: StoredProfile | undefined, profile: string): LedgerSettings {
  const fromEnv = envValue(env, "SHIPCTL_LEDGER");
  const url = fromEnv ?? stored?.ledger ?? "local";
  const where = fromEnv !== undefined ? "SHIPCTL_LEDGER" : `the ledger setting of profile ${profile}`;
  const problem = ledgerUrlProblem(url);
  if (problem !== undefined) {
    throw new UsageError(`${where}: ${problem}`, {
      hint: "Give `local` (the default) or a PostgreSQL connection URL such as postgres://shipctl@db.example/shipctl (docs/team.md).",
    });
  }
  const orgEnv = envValue(env, "SHIPCTL_ORGANIZATION");
  const organization = orgEnv ?? stored?.organization;
  if (url === "local") return LOCAL_LEDGER;
  if (organization === undefined) {
    throw new UsageError(`a shared ledger (${where}) needs the organization's name: neither SHIPCTL_ORGANIZATION nor the profile's organization is set. Nothing was sent.`, {
      hint: `Every machine of the team sets the same name, chosen once: \`shipctl config set organization north-gallery${profileFlag(profile)}\` (or SHIPCTL_ORGANIZATION); the ledger keeps each organization's entries apart (docs/team.md).`,
    });
  }
  const orgProblem = organizationProblem(organization);
  if (orgProblem !== undefined) throw new UsageError(`${orgEnv !== undefined ? "SHIPCTL_ORGANIZATION" : `the organization setting of profile ${profile}`}: ${orgProblem}`);
  return { kind: "postgres", url, organization };
}
