// A command line as a person would type it back into a POSIX shell (the "run again" lines, the demo's transcript).

/** An argument as is when the shell leaves it alone, else in single quotes. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
