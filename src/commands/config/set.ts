// `shipctl config set <key> <value>`: baseUrl (same https/loopback rule as everywhere) and currentProfile.
// The token is not settable here: a value on a command line stays in shell history and shows in `ps`.
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { normaliseBaseUrl, strippedPrefixNote, sameOrigin } from "../../config/base-url.js";
import { envValue, resolveProfileName } from "../../config/settings.js";
import { openConfigStore } from "../../config/store.js";
import { profileNameProblem, profileOf } from "../../config/schema.js";
import { printJson } from "../../output/json.js";
import { settingKey } from "./sources.js";

export const SETTABLE = "baseUrl, currentProfile";

export async function run(deps: Deps, args: string[]): Promise<void> {
  const [input = "", value = ""] = args;
  const key = settingKey(input);
  if (key === "token") {
    throw new UsageError("the token cannot be set with `config set`: a command line is kept in shell history and shown by `ps`", {
      hint: 'use: printf %s "$TOKEN" | shipctl login --token-stdin   (it also checks the token before saving)',
    });
  }
  if (key === "profile") {
    throw new UsageError("the profile is chosen per run, with --profile NAME or SHIPCTL_PROFILE", {
      hint: "to change the profile used by default: shipctl config set currentProfile NAME",
    });
  }
  if (!key) throw new UsageError(`unknown setting "${input}"`, { hint: `settable: ${SETTABLE}` });
  if (key === "baseUrl") return setBaseUrl(deps, value);
  return setCurrentProfile(deps, value);
}

async function setBaseUrl(deps: Deps, input: string): Promise<void> {
  const normalised = normaliseBaseUrl(input, "baseUrl");
  if (normalised.strippedApiPrefix) deps.io.err(strippedPrefixNote("baseUrl", normalised.url));
  const url = normalised.url;
  const store = await openConfigStore(deps.env);
  const profile = resolveProfileName({ globals: deps.globals, env: deps.env, data: store.read(), configPath: store.path }).value;
  let droppedToken = false;
  await store.update((d) => {
    const current = profileOf(d, profile) ?? {};
    const next = { ...current, baseUrl: url };
    // A token belongs to the service that issued it: never send it to another host because a URL was edited.
    if (next.token && current.baseUrl && !sameOrigin(current.baseUrl, url)) {
      delete next.token;
      droppedToken = true;
    }
    d.profiles[profile] = next;
  });
  deps.io.err(`${deps.theme.err.ok("✓")} Set baseUrl of profile ${profile} to ${url}\n`);
  if (droppedToken) deps.io.err(`The saved token was for another host and has been removed: run \`shipctl login${profileFlag(profile)}\`.\n`);
  if (deps.globals.baseUrl !== undefined || envValue(deps.env, "SHIPCTL_BASE_URL") !== undefined) {
    deps.io.err(`Note: --base-url or SHIPCTL_BASE_URL overrides this for runs that give it.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { profile, key: "baseUrl", value: url, tokenRemoved: droppedToken });
}

async function setCurrentProfile(deps: Deps, name: string): Promise<void> {
  const problem = profileNameProblem(name);
  if (problem) throw new UsageError(problem);
  const store = await openConfigStore(deps.env);
  const data = await store.update((d) => {
    d.currentProfile = name;
  });
  deps.io.err(`${deps.theme.err.ok("✓")} Commands now use profile ${name} by default\n`);
  if (!profileOf(data, name)) deps.io.err(`Profile ${name} has no settings yet: run \`shipctl login --profile ${name}\`.\n`);
  if (envValue(deps.env, "SHIPCTL_PROFILE") !== undefined) deps.io.err("Note: SHIPCTL_PROFILE is set in this environment and overrides it.\n");
  if (deps.globals.json) printJson(deps.io, { key: "currentProfile", value: name });
}

function profileFlag(profile: string): string {
  return profile === "default" ? "" : ` --profile ${profile}`;
}

