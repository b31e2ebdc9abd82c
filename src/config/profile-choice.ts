// Why a run uses the profile it uses, told the way `auth status` and `profile list` show it, and the refusal of a
// profile name the config file does not have (`profile use`, `profile remove`).
import { UsageError } from "../errors.js";
import type { Setting } from "./settings.js";
import type { ConfigData } from "./schema.js";
import { profileOf } from "./profile-name.js";

/** Where the profile in use was chosen: "current" is the config file's currentProfile (`profile use`). */
export type ProfileChoiceSource = "flag" | "env" | "current" | "default";

export interface ProfileChoice {
  name: string;
  source: ProfileChoiceSource;
  /** For people: "--profile flag", "SHIPCTL_PROFILE", "saved as current" (by `profile use`), "default: none chosen". */
  why: string;
}

const CHOICES: Record<Setting<string>["source"], Omit<ProfileChoice, "name">> = {
  flag: { source: "flag", why: "--profile flag" },
  env: { source: "env", why: "SHIPCTL_PROFILE" },
  profile: { source: "current", why: "saved as current" },
  default: { source: "default", why: "default: none chosen" },
};

/** The profile setting as resolved (settings.ts resolveProfileName), with its reason in words. */
export function profileChoice(profile: Setting<string>): ProfileChoice {
  return { name: profile.value, ...CHOICES[profile.source] };
}

/** The saved profile names, sorted. */
export function profileNames(data: ConfigData): string[] {
  return Object.keys(data.profiles).sort();
}

/**
 * Exit 2, listing the profiles there are, unless the config file has a profile called `name`. `to`: what the name
 * was given for; only a profile to use may be one still to create, so only then does the hint say how.
 */
export function requireSavedProfile(data: ConfigData, name: string, to: "use" | "remove"): void {
  if (profileOf(data, name)) return;
  const names = profileNames(data);
  const hint =
    to === "use"
      ? `create it with \`shipctl login --profile ${name}\`, or see them with \`shipctl profile list\``
      : "nothing was removed";
  throw new UsageError(`there is no profile "${name}"${names.length ? `; profiles: ${names.join(", ")}` : ": no profile is saved"}`, { hint });
}
