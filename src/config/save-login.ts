// Logging in (`shipctl login`): asks for (or takes) the base URL and the token, proves the token with one
// authenticated read, and only then saves it. A sandbox's Country/Service tables are stored with the profile too.
import type { Deps } from "../deps.js";
import { AuthError, UsageError, messageOf, namedAs } from "../errors.js";
import { normaliseBaseUrl, strippedPrefixNote } from "./base-url.js";
import { envValue } from "../env.js";
import { checkToken } from "./settings.js";
import { profileInUse } from "./config-context.js";
import type { StoredProfile } from "./schema.js";
import { profileOf } from "./profile-name.js";
import { probeSandboxTables } from "./tables-probe.js";
import { rememberProbe } from "./profile-tables.js";
import { readAll } from "../output/io.js";
import { pipedFromEnv } from "../output/shell-quote.js";
import { printJson } from "../output/json.js";
import { createRedactor } from "../api/redact.js";
import type { NetworkOptions } from "../api/network.js";

const scriptExample = () => `${pipedFromEnv("SHIPCTL_TOKEN")} shipctl login --base-url https://api.example.com --token-stdin`;

/** `tokenStdin`: read the token from stdin (scripts) rather than ask for it. */
export async function saveLogin(deps: Deps, options: { tokenStdin: boolean }): Promise<void> {
  const { store, data, profile } = await profileInUse(deps);
  const saved = profileOf(data, profile);

  const givenUrl = deps.globals.baseUrl ?? envValue(deps.env, "SHIPCTL_BASE_URL");
  const urlWhere = deps.globals.baseUrl !== undefined ? "--base-url" : "SHIPCTL_BASE_URL";
  if (!deps.canPrompt()) requireScriptFlags(deps, givenUrl !== undefined, options.tokenStdin);

  const baseUrl = givenUrl !== undefined ? checkedUrl(deps, givenUrl, urlWhere) : await askBaseUrl(deps, saved?.baseUrl);
  const token = options.tokenStdin ? await tokenFromStdin(deps) : checkToken(await deps.prompter.password("Token (input hidden):"), "the token");

  // The profile's CA file applies from the first request: `config set caFile` may come before the first login.
  const network = { env: deps.env, caFile: saved?.caFile };
  await proveToken(deps, baseUrl, givenUrl !== undefined ? urlWhere : "the URL typed at the prompt", token, network);
  const probe = await probeSandboxTables(baseUrl, {
    token,
    network,
    signal: deps.signal,
    debug: (line) => deps.debug(createRedactor(token)(line)),
  });
  if (!probe.sandbox && probe.warning) deps.io.err(`Warning: ${probe.warning}\n`);

  let madeCurrent = false;
  await store.update((d) => {
    const next: StoredProfile = { ...(profileOf(d, profile) ?? {}), baseUrl, token };
    // A sandbox's own tables are the truth for it; any other service keeps what the user imported or confirmed, and
    // is remembered as no sandbox, so commands do not ask it again.
    rememberProbe(next, baseUrl, probe);
    d.profiles[profile] = next;
    // With no profile current (the first login, or the current one removed with no profile to follow it), the one
    // logged in to becomes the one used without --profile.
    if (!d.currentProfile) {
      d.currentProfile = profile;
      madeCurrent = true;
    }
  });

  const t = deps.theme.err;
  deps.io.alert(`${t.ok("✓")} Logged in to ${baseUrl} as profile ${profile}\n`);
  if (probe.sandbox) deps.io.err(`This is a shipctl sandbox: its Country and Service tables were saved with the profile.\n`);
  const current = store.read().currentProfile;
  // It changes what plain commands use, so it is never done silently.
  if (madeCurrent) deps.io.err(`Profile ${profile} is now the current profile: commands use it unless given --profile or SHIPCTL_PROFILE.\n`);
  else if (current !== profile) {
    deps.io.err(t.dim(`Commands use profile ${current} unless given --profile ${profile} (or run: shipctl profile use ${profile})\n`));
  }
  if (envValue(deps.env, "SHIPCTL_TOKEN") !== undefined) {
    deps.io.err(`${t.warn("Note:")} SHIPCTL_TOKEN is set in this environment and overrides the saved token.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { profile, base_url: baseUrl, sandbox: probe.sandbox });
}

function requireScriptFlags(deps: Deps, hasUrl: boolean, hasTokenStdin: boolean): void {
  const missing = [...(hasUrl ? [] : ["--base-url URL"]), ...(hasTokenStdin ? [] : ["--token-stdin"])];
  if (missing.length === 0) return;
  const why = deps.globals.input ? "there is no terminal to prompt on" : "--no-input was given";
  throw new UsageError(`login needs ${missing.join(" and ")} here (${why})`, { hint: `e.g. ${scriptExample()}` });
}

function checkedUrl(deps: Deps, input: string, where: string): string {
  const n = normaliseBaseUrl(input, where);
  if (n.strippedApiPrefix) deps.io.err(strippedPrefixNote(where, n.url));
  return n.url;
}

async function askBaseUrl(deps: Deps, current: string | undefined): Promise<string> {
  const answer = await deps.prompter.input("Service base URL:", {
    default: current,
    validate: (value) => {
      try {
        normaliseBaseUrl(value, "the URL");
        return true;
      } catch (e) {
        return messageOf(e);
      }
    },
  });
  return checkedUrl(deps, answer, "the URL");
}

async function tokenFromStdin(deps: Deps): Promise<string> {
  const text = await readAll(deps.io.stdin);
  if (text.trim() === "") {
    throw new UsageError("--token-stdin: nothing was read from stdin", { hint: `pipe the token in, e.g. ${scriptExample()}` });
  }
  return checkToken(text, "the token on stdin");
}

/**
 * One authenticated read (the first page of shipments, one item): a wrong token is caught before it is saved.
 * `setting`: where the base URL came from, named if its host does not resolve.
 */
async function proveToken(deps: Deps, baseUrl: string, setting: string, token: string, network: NetworkOptions): Promise<void> {
  const { createApiClient } = await import("../api/client.js");
  const client = createApiClient({
    baseUrl,
    baseUrlSetting: setting,
    token,
    userAgent: `shipctl/${deps.version}`,
    clock: deps.clock,
    debug: deps.globals.debug ? (line) => deps.debug(createRedactor(token)(line)) : undefined,
    signal: deps.signal,
    network,
  });
  try {
    await client.listShipments({ limit: 1 }, { signal: deps.signal });
  } catch (e) {
    if (e instanceof AuthError) {
      // A 402 accepted the token: it is the organization's subscription that is missing, not a better token.
      const tokenHint = "Check that the token is complete and was issued for this service.";
      const why = e.errorCode === "no_subscription" ? (e.hint ?? "") : tokenHint;
      const failed = new AuthError(`login to ${baseUrl} failed: ${createRedactor(token)(e.message)}`, {
        hint: `Nothing was saved. ${why}`,
        cause: e,
      });
      throw namedAs(failed, e);
    }
    throw e;
  } finally {
    await client.close().catch(() => undefined);
  }
}
