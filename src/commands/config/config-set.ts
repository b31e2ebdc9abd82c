// `shipctl config set <key> <value>`: its wiring, options and run. The key and the value are checked here (baseUrl
// with the same https/loopback rule as everywhere, a profile name's spelling); config/change-setting.ts stores them.
// The token is not settable here: a value on a command line stays in shell history and shows in `ps`.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { normaliseBaseUrl, type NormalisedBaseUrl } from "../../config/base-url.js";
import { profileNameProblem } from "../../config/profile-name.js";
import { settingKey, type SettingKey } from "../../config/setting-sources.js";
import { LOOK_DAYS_MAX, parseLookDays } from "../../config/look-days.js";
import { hasUrlPassword, ledgerUrlProblem, organizationProblem, redactUrlPassword } from "../../config/ledger-setting.js";
import { pipedFromEnv } from "../../output/shell-quote.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export type ConfigSetOptions =
  | { key: "baseUrl"; baseUrl: NormalisedBaseUrl }
  | { key: "currentProfile"; profile: string }
  | { key: "stripLocation"; value: boolean }
  /** `path` "" removes the setting. */
  | { key: "caFile"; path: string }
  | { key: "lookDays"; days: number }
  /** `value` "local", or a postgres:// URL without a password. */
  | { key: "ledger"; value: string }
  | { key: "organization"; value: string };

const SETTABLE_KEYS: readonly SettingKey[] = ["baseUrl", "currentProfile", "stripLocation", "caFile", "lookDays", "ledger", "organization"];
const SETTABLE = SETTABLE_KEYS.join(", ");

export function configSetCommand(ctx: CommandContext, run: VerbRun<ConfigSetOptions> = runConfigSet): Command {
  const command = new Command("set")
    .description("change a setting of the profile in use: baseUrl, currentProfile, stripLocation, caFile, lookDays, ledger or organization")
    .addArgument(completesWith(new Argument("<key>", SETTABLE_KEYS.join(" | ")), SETTABLE_KEYS))
    .argument("<value>", "the new value")
    .addHelpText(
      "after",
      `
baseUrl must be https://, except for localhost, 127.0.0.0/8 and [::1]. A trailing /api/v1 is removed.
Changing baseUrl to another host removes the saved token (it belongs to the old host).
stripLocation true makes \`report upload\` remove the GPS position from every photo, as --strip-location does
(--keep-location overrides it for one run); false, the default, sends the position as the photos have it.
caFile PATH trusts the CA certificates of a PEM file for this profile's requests, besides Node's own (a service
or a network proxy with its own certificate authority); the file is checked now. caFile "" removes it.
lookDays N (0 to 365, default 7): before a create, shipment create reads the shipments created in the last N days
and does not send one another machine created already (docs/ledger.md); 0 turns that look off. SHIPCTL_LOOK_DAYS
overrides it for one run.
ledger URL: where the organization's ledger is: local (the default: files in the state folder) or a team's
PostgreSQL database, postgres://USER@HOST/DB (docs/team.md). Its password is refused here (it would stay in shell
history): give it in PGPASSWORD or ~/.pgpass, or the whole URL in SHIPCTL_LEDGER. organization NAME: the
organization's name in a shared ledger, the same on every machine of the team (required with one).
The token cannot be set here: use \`${pipedFromEnv("TOKEN")} shipctl login --token-stdin\`.

Examples:
  shipctl config set baseUrl https://api.example.com
  shipctl config set baseUrl http://127.0.0.1:8080 --profile local
  shipctl config set currentProfile local
  shipctl config set stripLocation true
  shipctl config set caFile ~/certs/corp-ca.pem
  shipctl config set lookDays 14
  shipctl config set ledger postgres://shipctl@db.gallery.example/shipctl
  shipctl config set organization north-gallery
`,
    );
  return command.action(verbAction(ctx, parseConfigSet, run));
}

export function parseConfigSet(args: string[]): ConfigSetOptions {
  const [input = "", value = ""] = args;
  const key = settingKey(input);
  if (key === "token") {
    throw new UsageError("the token cannot be set with `config set`: a command line is kept in shell history and shown by `ps`", {
      hint: `use: ${pipedFromEnv("TOKEN")} shipctl login --token-stdin   (it also checks the token before saving)`,
    });
  }
  if (key === "profile") {
    throw new UsageError("the profile is chosen per run, with --profile NAME or SHIPCTL_PROFILE", {
      hint: "to change the profile used by default: shipctl config set currentProfile NAME",
    });
  }
  if (!key) throw new UsageError(`unknown setting "${input}"`, { hint: `settable: ${SETTABLE}` });
  if (key === "baseUrl") return { key, baseUrl: normaliseBaseUrl(value, "baseUrl") };
  if (key === "stripLocation") {
    const word = value.trim().toLowerCase();
    if (word !== "true" && word !== "false") throw new UsageError(`stripLocation ${value}: give true or false`);
    return { key, value: word === "true" };
  }
  if (key === "caFile") return { key, path: value.trim() };
  if (key === "lookDays") {
    const days = parseLookDays(value);
    if (days === undefined) throw new UsageError(`lookDays ${value}: give a whole number of days from 0 to ${LOOK_DAYS_MAX}`);
    return { key, days };
  }
  if (key === "ledger") return { key, value: checkLedgerUrl(value.trim()) };
  if (key === "organization") {
    const problem = organizationProblem(value.trim());
    if (problem) throw new UsageError(`organization ${problem}`);
    return { key, value: value.trim() };
  }
  const problem = profileNameProblem(value);
  if (problem) throw new UsageError(problem);
  return { key, profile: value };
}

function checkLedgerUrl(value: string): string {
  const problem = ledgerUrlProblem(value);
  if (problem) throw new UsageError(`ledger ${problem}`, { hint: "Give local, or a PostgreSQL URL such as postgres://shipctl@db.gallery.example/shipctl." });
  if (hasUrlPassword(value)) {
    throw new UsageError(`ledger ${redactUrlPassword(value)}: a password on a command line is kept in shell history and shown by \`ps\`; nothing was saved`, {
      hint: "Save the URL without it, and give the password in PGPASSWORD or ~/.pgpass (or the whole URL in SHIPCTL_LEDGER).",
    });
  }
  return value;
}

export async function runConfigSet(options: ConfigSetOptions, deps: Deps): Promise<void> {
  const { setBaseUrl, setCaFile, setCurrentProfile, setLookDays, setStripLocation, setLedger } = await import("../../config/change-setting.js");
  if (options.key === "ledger" || options.key === "organization") return setLedger(deps, options.key, options.value);
  if (options.key === "lookDays") return setLookDays(deps, options.days);
  if (options.key === "stripLocation") return setStripLocation(deps, options.value);
  if (options.key === "caFile") return setCaFile(deps, options.path);
  return options.key === "baseUrl" ? setBaseUrl(deps, options.baseUrl) : setCurrentProfile(deps, options.profile);
}
