// Colours, decided once per run: off when the stream is not a terminal, with NO_COLOR or --no-color; FORCE_COLOR
// forces them. (chalk does not read NO_COLOR by itself, so we decide and hand it an explicit level.)
// chalk is loaded only by runs where a stream could show colour (main() calls loadColours() first): loading it pulls
// node:tty, node:os and chalk's own colour detection (~2-3 ms of start-up), which a script piping --json output,
// or any run without a terminal, never needs.
import type { ChalkInstance } from "chalk";

/** Each role a theme paints, and the chalk style it paints it with. */
const STYLES = {
  ok: "green", warn: "yellow", error: "red", dim: "dim", bold: "bold", accent: "cyan", added: "green", removed: "red",
} as const;

export type Theme = { enabled: boolean } & Record<keyof typeof STYLES, (s: string) => string>;

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
  const c = chalk;
  if (enabled && !c) {
    throw new Error("createTheme(true) before loadColours(): colours were decided on without loading chalk");
  }
  const paint = (style: (typeof STYLES)[keyof typeof STYLES]) => (c && enabled ? (s: string) => c[style](s) : PLAIN);
  const roles = Object.entries(STYLES).map(([role, style]) => [role, paint(style)]);
  return { enabled, ...Object.fromEntries(roles) } as Theme;
}
