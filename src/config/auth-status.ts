// `shipctl auth status` (and `shipctl whoami`): the profile, base URL and token a run would use and where each came
// from, whether the service takes the token (one authenticated read through the API client, so its redaction,
// retries and exit codes are every command's; none with --offline) and whether the service is a sandbox (what the
// profile knows; the service is asked only when the profile does not know yet). The token is shown masked only: this
// is the output people paste into bug reports.
import type { Deps } from "../deps.js";
import { AuthError, CliError, errorJson } from "../errors.js";
import { callOptions } from "../input/call-options.js";
import { printJson, withError } from "../output/json.js";
import { maskToken } from "../output/mask-token.js";
import { renderRecord, tableWidth } from "../output/table.js";
import type { Connection, Source } from "./connection-types.js";
import { profileChoice, type ProfileChoice } from "./profile-choice.js";
import { probeAndRemember, sandboxKnown } from "./profile-tables.js";
import { tablesContext } from "./tables-context.js";
import { profileOf } from "./schema.js";
import { sourceLabel } from "./setting-sources.js";
import { openConfigStore, type ConfigStore } from "./store.js";

interface StatusOptions {
  /** Send nothing: report only what the flags, the environment and the config file say. */
  offline: boolean;
}

/** The --json document. */
export interface AuthStatus {
  profile: ProfileChoice;
  base_url: { value: string; source: Source };
  token: { masked: string; source: Source };
  /** null: not checked (--offline), or the check failed for another reason (then `error` says which). */
  token_works: boolean | null;
  /** null: not known (--offline before the profile learnt it, or the service gave no lasting answer). */
  sandbox: boolean | null;
  config_path: string;
}

export async function showAuthStatus(deps: Deps, options: StatusOptions): Promise<void> {
  // Not logged in is exit 4 with the login hint, exactly as for every command that needs the service.
  const connection = await deps.connection();
  const store = await openConfigStore(deps.env);
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
  if (deps.globals.json) printJson(deps.io, withError(status, failure && errorJson(failure)));
  else deps.io.out(renderRecord(statusRows(status, options, failure), { theme: deps.theme.out, width: tableWidth(deps.io) }));
  // main() says what went wrong on stderr, with its hint, and exits with its code (4 for a refused token).
  if (failure) throw failure;
}

/** The profile did not know: ask once, and keep the answer in the profile that points at this service. */
async function askSandbox(deps: Deps, connection: Connection, store: ConfigStore): Promise<boolean | null> {
  const answer = await probeAndRemember(tablesContext(deps, store, connection));
  if (answer.sandbox) return true;
  if (answer.warning) deps.io.err(`Warning: ${answer.warning}\n`);
  return answer.definite ? false : null;
}

function statusRows(status: AuthStatus, options: StatusOptions, failure: CliError | undefined): Array<[string, string]> {
  const profile = status.profile.name;
  const works =
    status.token_works === true
      ? failure
        ? "accepted, but the organization has no subscription"
        : "yes (GET /api/v1/shipments?limit=1 answered)"
      : status.token_works === false
        ? "no: the service refused it"
        : options.offline
          ? "not checked (--offline)"
          : "not known: the check failed";
  const sandbox = status.sandbox === null ? (options.offline ? "not known yet (--offline)" : "not known") : status.sandbox ? "yes" : "no";
  return [
    ["profile", `${profile} (${status.profile.why})`],
    ["base URL", `${status.base_url.value} (${sourceLabel("baseUrl", status.base_url.source, profile)})`],
    ["token", `${status.token.masked} (${sourceLabel("token", status.token.source, profile)})`],
    ["token works", works],
    ["sandbox", sandbox],
    ["config file", status.config_path],
  ];
}
