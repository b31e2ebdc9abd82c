// Which profile, base URL and token a run uses, and where each came from. Precedence: flag > environment > profile.
// There is no token flag on purpose: a token on a command line lands in shell history and in `ps` for every user.
// Pure (the config file is passed in as data), so every precedence rule is unit-tested without a disk or a network.
import { UsageError } from "../errors.js";
import { normaliseBaseUrl, sameOrigin, strippedPrefixNote } from "./base-url.js";
import type { ConfigData, StoredProfile } from "./schema.js";
import { DEFAULT_PROFILE, profileNameProblem, profileOf } from "./profile-name.js";
import type { Source } from "../deps.js";
import { envValue } from "../env.js";

export interface Setting<T> {
  value: T;
  source: Source;
}

export interface ResolvedSettings {
  profile: Setting<string>;
  /** The profile as saved, if the config file has it. */
  stored: StoredProfile | undefined;
  baseUrl?: Setting<string>;
  token?: Setting<string>;
  /** The profile's saved token was not used: it belongs to another service (its origin). */
  withheldToken?: { savedFor: string };
  /** Things to tell the user on stderr (e.g. "/api/v1 was removed from --base-url"). */
  notes: string[];
}

export interface SettingsInput {
  globals: { profile?: string; baseUrl?: string };
  env: NodeJS.ProcessEnv;
  data: ConfigData;
  /** For messages about values that came from the file. */
  configPath: string;
}

/** An environment variable, with an empty value read as unset (`SHIPCTL_PROFILE= shipctl ...`). */
export function resolveProfileName(input: Pick<SettingsInput, "globals" | "env" | "data" | "configPath">): Setting<string> {
  refuseBlankProfile(input.globals.profile);
  const candidates: Array<[string | undefined, Source, string]> = [
    [input.globals.profile?.trim(), "flag", "--profile"],
    [envValue(input.env, "SHIPCTL_PROFILE"), "env", "SHIPCTL_PROFILE"],
    [input.data.currentProfile?.trim() || undefined, "profile", `currentProfile in ${input.configPath}`],
  ];
  for (const [value, source, where] of candidates) {
    if (value === undefined) continue;
    const problem = profileNameProblem(value);
    if (problem) throw new UsageError(`${where}: ${problem}`);
    return { value, source };
  }
  return { value: DEFAULT_PROFILE, source: "default" };
}

/** A blank --profile (an unset variable in a script) is refused: read as unset, it would run on another profile. */
export function refuseBlankProfile(profile: string | undefined): void {
  if (profile?.trim() !== "") return;
  throw new UsageError("--profile is empty", { hint: "give a profile name (`shipctl profile list` shows them)" });
}

export function resolveSettings(input: SettingsInput): ResolvedSettings {
  const profile = resolveProfileName(input);
  const stored = profileOf(input.data, profile.value);
  const notes: string[] = [];

  const urlCandidates: Array<[string | undefined, Source, string]> = [
    [input.globals.baseUrl, "flag", "--base-url"],
    [envValue(input.env, "SHIPCTL_BASE_URL"), "env", "SHIPCTL_BASE_URL"],
    [stored?.baseUrl, "profile", `baseUrl of profile "${profile.value}" (${input.configPath})`],
  ];
  let baseUrl: Setting<string> | undefined;
  for (const [value, source, where] of urlCandidates) {
    if (value === undefined) continue;
    const normalised = normaliseBaseUrl(value, where);
    if (normalised.strippedApiPrefix) notes.push(strippedPrefixNote(where, normalised.url));
    baseUrl = { value: normalised.url, source };
    break;
  }

  let token: Setting<string> | undefined;
  let withheldToken: ResolvedSettings["withheldToken"];
  const envToken = envValue(input.env, "SHIPCTL_TOKEN");
  if (envToken !== undefined) token = { value: checkToken(envToken, "SHIPCTL_TOKEN"), source: "env" };
  else if (stored?.token) {
    // A saved token is only ever sent to the service it was saved for: --base-url or SHIPCTL_BASE_URL pointing
    // elsewhere must not hand it to another host. A saved URL that is no URL (the file edited by hand) names none.
    const savedFor = stored.baseUrl;
    if (baseUrl && baseUrl.source !== "profile" && (savedFor === undefined || !sameOrigin(baseUrl.value, savedFor))) {
      withheldToken = { savedFor: URL.parse(savedFor ?? "")?.origin ?? "an unknown service" };
    } else token = { value: stored.token, source: "profile" };
  }

  return { profile, stored, baseUrl, token, withheldToken, notes };
}

/** A token goes into an HTTP header: inner spaces or line breaks mean something else was pasted with it. */
export function checkToken(token: string, where: string): string {
  const value = token.trim();
  if (value === "") throw new UsageError(`${where} is empty`);
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value)) {
    throw new UsageError(`${where} contains spaces, line breaks or control characters`, {
      hint: "give only the token itself",
    });
  }
  // A token is plain ASCII. Another character (a dash or quote a chat or word processor "improved", a letter typed at
  // the hidden prompt) cannot go into the header: undici refused it as "invalid authorization header", which
  // read as a network failure (exit 7, "check the base URL and the network connection").
  const odd = /[^\x21-\x7e]/.exec(value);
  if (odd) {
    const code = `U+${odd[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    throw new UsageError(`${where} contains "${odd[0]}" (${code}), which is not in any token: tokens are plain ASCII`, {
      hint: "copy the token again from where it was issued, or type it with plain letters, digits and punctuation",
    });
  }
  return value;
}
