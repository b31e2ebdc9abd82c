// Colours, decided once per run: off when the stream is not a terminal, with NO_COLOR or --no-color; FORCE_COLOR
// forces them. (chalk does not read NO_COLOR by itself, so we decide and hand it an explicit level.)
// chalk is loaded only by runs where a stream could show colour (main() calls loadColours() first): loading it pulls
// node:tty, node:os and chalk's own colour detection (~2-3 ms of start-up), which a script piping --json output,
// or any run without a terminal, never needs.
import type { ChalkInstance } from "chalk";

export interface Theme {
  enabled: boolean;
  ok(s: string): string;
  warn(s: string): string;
  error(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
  accent(s: string): string;
  added(s: string): string;
  removed(s: string): string;
}

export function colorEnabled(isTTY: boolean, env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return isTTY;
}

let chalk: ChalkInstance | undefined;

/** Loads chalk once, at level 1 (16 colours: what every terminal shows). Needed before createTheme(true). */
export async function loadColours(): Promise<void> {
  if (chalk) return;
  const { Chalk } = await import("chalk");
  chalk = new Chalk({ level: 1 });
}

const PLAIN = (s: string) => s;

export function createTheme(enabled: boolean): Theme {
  if (!enabled) {
    return { enabled, ok: PLAIN, warn: PLAIN, error: PLAIN, dim: PLAIN, bold: PLAIN, accent: PLAIN, added: PLAIN, removed: PLAIN };
  }
  const c = chalk;
  if (!c) throw new Error("createTheme(true) before loadColours(): colours were decided on without loading chalk");
  return {
    enabled,
    ok: (s) => c.green(s),
    warn: (s) => c.yellow(s),
    error: (s) => c.red(s),
    dim: (s) => c.dim(s),
    bold: (s) => c.bold(s),
    accent: (s) => c.cyan(s),
    added: (s) => c.green(s),
    removed: (s) => c.red(s),
  };
}
