// A word of a command line the user can copy into a POSIX shell as it is printed (a resume command, the demo's).

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
