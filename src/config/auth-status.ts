// `shipctl auth status` (and `shipctl whoami`): the profile, base URL and token a run would use and where each came
// from, whether the service takes the token (one authenticated read through the API client, so its redaction,
// retries and exit codes are every command's; none with --offline) and whether the service is a sandbox (what the
// profile knows; the service is asked only when the profile does not know yet). The token is shown masked only: this
// is the output people paste into bug reports.
import { callOptions, type Connection, type Deps, type Source } from "../deps.js";
import { AuthError, CliError, errorJson } from "../errors.js";
import { printJson, withError } from "../output/json.js";
import { maskToken } from "../output/mask-token.js";
import { renderRecord, tableWidth } from "../output/table.js";
import { profileChoice, type ProfileChoice } from "./profile-choice.js";
import { probeAndRemember, sandboxKnown } from "./profile-tables.js";
import { profileOf } from "./profile-name.js";
import { sourceLabel } from "./setting-sources.js";
import { resolveSettings } from "./settings.js";
import { openConfigStore, type ConfigStore } from "./store.js";

export interface StatusOptions {
  /** Send nothing: report only what the flags, the environment and the config file say. */
  offline: boolean;
}

/** The --json document. */
export interface AuthStatus {
  profile: ProfileChoice;
  /** null: no base URL is set (not logged in). */
  base_url: { value: string; source: Source } | null;
  /** null: no token to send (not logged in, or the saved one is for another service). */
  token: { masked: string; source: Source } | null;
  /** null: not checked (--offline), or the check failed for another reason (then `error` says which). */
  token_works: boolean | null;
  /** null: not known (--offline before the profile learnt it, or the service gave no lasting answer). */
  sandbox: boolean | null;
  config_path: string;
}

export async function showAuthStatus(deps: Deps, options: StatusOptions): Promise<void> {
  const store = await openConfigStore(deps.env);
  let connection: Connection;
  try {
    connection = await deps.connection();
  } catch (e) {
    // Not logged in: the same document, showing what is there and what is missing, then exit 4 with the login hint
    // on stderr exactly as for every command that needs the service.
    if (!(e instanceof AuthError) || e.errorCode !== "auth_required") throw e;
    return printStatus(deps, options, loggedOutStatus(deps, store), e);
  }
  let sandbox = sandboxKnown(profileOf(store.read(), connection.profile), connection.baseUrl) ?? null;
  let tokenWorks: boolean | null = null;
  let failure: CliError | undefined;
  if (!options.offline) {
    try {
      await (await deps.api()).listShipments({ limit: 1 }, callOptions(deps, "Checking the token"));
      tokenWorks = true;
    } catch (e) {
      if (!(e instanceof CliError) || deps.signal.aborted) throw e;
      failure = e;
      // 402: the token was accepted, but the organization has no subscription.
      if (e instanceof AuthError) tokenWorks = e.errorCode === "no_subscription";
    }
    if (failure === undefined && sandbox === null) sandbox = await askSandbox(deps, connection, store);
  }

  const status: AuthStatus = {
    profile: profileChoice({ value: connection.profile, source: connection.sources.profile }),
    base_url: { value: connection.baseUrl, source: connection.sources.baseUrl },
    token: { masked: maskToken(connection.token), source: connection.sources.token },
    token_works: tokenWorks,
    sandbox,
    config_path: store.path,
  };
  printStatus(deps, options, { status }, failure);
}

/** What a status shows beyond its document: why there is no token, when there is none. */
interface StatusView {
  status: AuthStatus;
  noToken?: string;
}

/** Prints the status; `failure` goes beside it in the document, and is thrown for main() to say and exit with. */
function printStatus(deps: Deps, options: StatusOptions, view: StatusView, failure: CliError | undefined): void {
  if (deps.globals.json) printJson(deps.io, withError(view.status, failure && errorJson(failure)));
  else deps.io.out(renderRecord(statusRows(view, options, failure), { theme: deps.theme.out, width: tableWidth(deps.io) }));
  // main() says what went wrong on stderr, with its hint, and exits with its code (4 for a refused token).
  if (failure) throw failure;
}

/** The settings as far as they go (deps.connection() already printed their notes), nothing sent. */
function loggedOutStatus(deps: Deps, store: ConfigStore): StatusView {
  const settings = resolveSettings({ globals: deps.globals, env: deps.env, data: store.read(), configPath: store.path });
  return {
    status: {
      profile: profileChoice(settings.profile),
      base_url: settings.baseUrl ?? null,
      token: null,
      token_works: null,
      sandbox: sandboxKnown(settings.stored, settings.baseUrl?.value) ?? null,
      config_path: store.path,
    },
    noToken: settings.withheldToken ? `not sent: the saved one is for ${settings.withheldToken.savedFor}` : "not saved",
  };
}

/** The profile did not know: ask once, and keep the answer in the profile that points at this service. */
async function askSandbox(deps: Deps, connection: Connection, store: ConfigStore): Promise<boolean | null> {
  const answer = await probeAndRemember({ ...connection, store, run: deps });
  if (answer.sandbox) return true;
  if (answer.warning) deps.io.err(`Warning: ${answer.warning}\n`);
  return answer.definite ? false : null;
}

function statusRows(view: StatusView, options: StatusOptions, failure: CliError | undefined): Array<[string, string]> {
  const { status } = view;
  const profile = status.profile.name;
  const works =
    status.token === null
      ? "not checked: no token"
      : status.token_works === true
        ? failure
          ? "accepted, but the organization has no subscription"
          : "yes (GET /api/v1/shipments?limit=1 answered)"
        : status.token_works === false
          ? "no: the service refused it"
          : options.offline
            ? "not checked (--offline)"
            : "not known: the check failed";
  const sandbox = status.sandbox === null ? (options.offline ? "not known yet (--offline)" : "not known") : status.sandbox ? "yes" : "no";
  const baseUrl = status.base_url;
  const token = status.token;
  return [
    ["profile", `${profile} (${status.profile.why})`],
    ["base URL", baseUrl ? `${baseUrl.value} (${sourceLabel("baseUrl", baseUrl.source, profile)})` : "not set"],
    ["token", token ? `${token.masked} (${sourceLabel("token", token.source, profile)})` : (view.noToken ?? "not saved")],
    ["token works", works],
    ["sandbox", sandbox],
    ["config file", status.config_path],
  ];
}
