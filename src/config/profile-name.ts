// What a profile may be called, and a profile by its name; light (no zod), so a command's parse can check a name it
// is given, and shell completion can read the profiles at TAB time.

export const DEFAULT_PROFILE = "default";

/** Profile names: letters, digits, ".", "_" and "-", starting with a letter or digit; at most 64 characters. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function profileNameProblem(name: string): string | undefined {
  if (PROFILE_NAME.test(name)) return undefined;
  return `profile name "${name}" may use only letters, digits, ".", "_" and "-", must start with a letter or digit, and be at most 64 characters`;
}

/** How a command line names the profile: nothing for the default one, else ` --profile NAME`. */
export function profileFlag(name: string): string {
  return name === DEFAULT_PROFILE ? "" : ` --profile ${name}`;
}

/** A profile by name; own keys only, so a name like "constructor" never reads Object.prototype. */
export function profileOf<P>(data: { profiles: Record<string, P> }, name: string): P | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}
