// Colours, decided once per run: off when the stream is not a terminal, with NO_COLOR or --no-color; FORCE_COLOR
// forces them. (chalk does not read NO_COLOR by itself, so we decide and hand it an explicit level.)
import { Chalk, type ChalkInstance } from "chalk";

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

export function createTheme(enabled: boolean): Theme {
  const c: ChalkInstance = new Chalk({ level: enabled ? 1 : 0 });
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
