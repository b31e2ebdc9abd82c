// A word of a command line the user can copy into their shell as it is printed (a resume command, `due`'s next step,
// the demo's). The shell is PowerShell on Windows (Windows Terminal's and VS Code's default), a POSIX shell elsewhere;
// SHIPCTL_SHELL=cmd (or powershell, posix) says otherwise, for cmd.exe users and scripts: nothing tells reliably
// which shell started a process on Windows.
export type Shell = "posix" | "powershell" | "cmd";

const SHELLS: readonly Shell[] = ["posix", "powershell", "cmd"];

export function userShell(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Shell {
  const chosen = env.SHIPCTL_SHELL?.trim().toLowerCase();
  if (SHELLS.includes(chosen as Shell)) return chosen as Shell;
  return platform === "win32" ? "powershell" : "posix";
}

export function shellQuote(arg: string, shell: Shell = userShell()): string {
  if (shell === "powershell") return powershellQuote(arg);
  if (shell === "cmd") return cmdQuote(arg);
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A file or folder given as an argument: one starting with `-` would be read as an option, so it is written `./-x`. */
export function shellPath(path: string, shell: Shell = userShell()): string {
  return shellQuote(path.startsWith("-") ? `./${path}` : path, shell);
}

/**
 * The flags that name the service a command ran against (blank ones were not given), so that a command printed to run
 * again reaches the same service and its ledger, not the default profile's.
 */
export function serviceFlags(globals: { profile?: string; baseUrl?: string }): string[] {
  const words: string[] = [];
  if (globals.profile?.trim()) words.push("--profile", shellQuote(globals.profile));
  if (globals.baseUrl?.trim()) words.push("--base-url", shellQuote(globals.baseUrl));
  return words;
}

/**
 * The start of a command line that pipes an environment variable's value into the command after it (a token for
 * `login --token-stdin`, kept out of the command line), in the user's shell: PowerShell and cmd.exe have no printf.
 */
export function pipedFromEnv(name: string, shell: Shell = userShell()): string {
  if (shell === "powershell") return `$env:${name} |`;
  if (shell === "cmd") return `echo %${name}%|`;
  return `printf %s "$${name}" |`;
}

/** A word PowerShell and cmd.exe take as it is, unquoted (the PowerShell completion script quotes by it too). */
export const WINDOWS_BARE_WORD = /^[\w.:\\/=+-]+$/;

/**
 * PowerShell (about_Quoting_Rules): nothing is expanded between single quotes, and a single quote inside is written
 * twice. PowerShell takes the typographic quotes ‘ ’ ‚ ‛ as single quotes too, so they are doubled as well. A bare word
 * keeps to characters that mean nothing in argument mode (no `,` array, `@` splat, `$` variable, `;` or backtick).
 */
function powershellQuote(arg: string): string {
  if (WINDOWS_BARE_WORD.test(arg)) return arg;
  return `'${arg.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}

/**
 * cmd.exe: double quotes keep spaces, `&`, `|`, `<`, `>`, `^` and apostrophes literal. A `%` would still expand a
 * variable: it is written outside the quotes, escaped with a caret ("a"^%"b", which the program reads as one word).
 * A double quote inside is `\"` for the program's own parsing (with the backslashes before it doubled), as is a
 * trailing backslash; Windows file names never hold a double quote.
 */
function cmdQuote(arg: string): string {
  if (WINDOWS_BARE_WORD.test(arg)) return arg;
  const escaped = arg.replace(/(\\*)"/g, (_, slashes: string) => `${slashes}${slashes}\\"`).replace(/(\\+)$/, "$1$1");
  return `"${escaped.replace(/%/g, `"^%"`)}"`;
}
