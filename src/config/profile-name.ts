// What a profile may be called; light (no zod), so a command's parse can check a name it is given.

/** Profile names: letters, digits, ".", "_" and "-", starting with a letter or digit; at most 64 characters. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function profileNameProblem(name: string): string | undefined {
  if (PROFILE_NAME.test(name)) return undefined;
  return `profile name "${name}" may use only letters, digits, ".", "_" and "-", must start with a letter or digit, and be at most 64 characters`;
}
