import { describe, expect, it } from "vitest";
import { Chalk } from "chalk";
import { colorEnabled, createTheme } from "../../../src/output/theme.js";

// theme.ts writes its own escape codes (loading chalk cost every run start-up time): they must stay chalk's, byte
// for byte, at the level-1 (16 colours) chalk used to be given.
const chalk = new Chalk({ level: 1 });
const on = createTheme(true);
const off = createTheme(false);

const SAMPLES = [
  "",
  "plain",
  "two\nlines",
  "windows\r\nline\r\nbreaks\n",
  "\n",
  "\r\n\r\n",
  "trailing\n",
  "a \u001B[39m close code inside",
  "\u001B[32mgreen\u001B[39m then plain",
  "\u001B[2mdim\u001B[22m\nnext line",
  "ünïcödé ✓ ✗",
];

describe("createTheme", () => {
  it("colours exactly as chalk does, for every style and every kind of text", () => {
    const pairs: Array<[(s: string) => string, (s: string) => string]> = [
      [on.ok, (s) => chalk.green(s)],
      [on.added, (s) => chalk.green(s)],
      [on.warn, (s) => chalk.yellow(s)],
      [on.error, (s) => chalk.red(s)],
      [on.removed, (s) => chalk.red(s)],
      [on.dim, (s) => chalk.dim(s)],
      [on.bold, (s) => chalk.bold(s)],
      [on.accent, (s) => chalk.cyan(s)],
    ];
    for (const s of SAMPLES) for (const [ours, theirs] of pairs) expect(JSON.stringify(ours(s))).toBe(JSON.stringify(theirs(s)));
  });

  it("nests as chalk does: an inner style's end does not end the outer one", () => {
    for (const s of SAMPLES) {
      expect(on.error(on.dim(s))).toBe(chalk.red(chalk.dim(s)));
      expect(on.accent(`${on.bold(s)} and ${on.ok(s)}\n${s}`)).toBe(chalk.cyan(`${chalk.bold(s)} and ${chalk.green(s)}\n${s}`));
      expect(on.warn(on.warn(s))).toBe(chalk.yellow(chalk.yellow(s)));
    }
  });

  it("leaves text untouched when colours are off", () => {
    for (const s of SAMPLES) {
      for (const style of [off.ok, off.warn, off.error, off.dim, off.bold, off.accent, off.added, off.removed]) expect(style(s)).toBe(s);
    }
    expect(off.enabled).toBe(false);
    expect(on.enabled).toBe(true);
  });
});

describe("colorEnabled", () => {
  it("follows --no-color, then NO_COLOR, then FORCE_COLOR, then the terminal", () => {
    expect(colorEnabled(true, {}, false)).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: "1" }, undefined)).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: "" }, undefined)).toBe(true);
    expect(colorEnabled(false, { FORCE_COLOR: "1" }, undefined)).toBe(true);
    expect(colorEnabled(true, { FORCE_COLOR: "0" }, undefined)).toBe(false);
    expect(colorEnabled(true, { FORCE_COLOR: "false" }, undefined)).toBe(false);
    expect(colorEnabled(false, {}, undefined)).toBe(false);
    expect(colorEnabled(true, {}, true)).toBe(true);
  });
});
