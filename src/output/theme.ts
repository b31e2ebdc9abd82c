// Colours, decided once per run: off when the stream is not a terminal, with NO_COLOR or --no-color; FORCE_COLOR
// forces them. The escape codes are written here rather than by chalk: loading chalk loads node:tty, node:os and
// its colour detection on every run (~2-3 ms of start-up) only to apply six basic colours whose level we decide
// ourselves. The output is chalk's at level 1, byte for byte (test/unit/output/theme.test.ts compares the two).

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
  const paint = enabled ? ansi : plain;
  const green = paint(32, 39);
  const red = paint(31, 39);
  return {
    enabled,
    ok: green,
    warn: paint(33, 39),
    error: red,
    dim: paint(2, 22),
    bold: paint(1, 22),
    accent: paint(36, 39),
    added: green,
    removed: red,
  };
}

function plain(): (s: string) => string {
  return (s) => s;
}

/** One SGR style, applied the way chalk applies it. */
function ansi(openCode: number, closeCode: number): (s: string) => string {
  const open = `\u001B[${openCode}m`;
  const close = `\u001B[${closeCode}m`;
  return (s) => {
    if (!s) return s;
    // A close code already inside (a nested style ending) would end ours too: reopen ours right after it.
    if (s.includes("\u001B")) s = s.split(close).join(close + open);
    // Close before each line break and reopen after it, so a colour never bleeds into the next line.
    if (s.includes("\n")) s = s.replace(/\r?\n/g, (lineBreak) => close + lineBreak + open);
    return open + s + close;
  };
}
