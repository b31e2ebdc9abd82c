import { beforeAll, describe, expect, it, vi } from "vitest";
import { colorEnabled, createTheme, loadColours } from "../../../src/output/theme.js";

// The escape codes of chalk at level 1 (16 colours): what a terminal receives.
const SGR = { green: [32, 39], yellow: [33, 39], red: [31, 39], cyan: [36, 39], dim: [2, 22], bold: [1, 22] } as const;
const wrap = (codes: readonly [number, number], s: string) => `\u001B[${codes[0]}m${s}\u001B[${codes[1]}m`;

describe("createTheme", () => {
  it("refuses colours before chalk is loaded (a run that decided on colours must load it first)", async () => {
    // A fresh copy of the module, which nothing has loaded chalk into (unit files share one worker's modules).
    vi.resetModules();
    const fresh = await import("../../../src/output/theme.js");
    expect(() => fresh.createTheme(true)).toThrow(/loadColours/);
    await fresh.loadColours();
    expect(fresh.createTheme(true).enabled).toBe(true);
  });

  describe("with chalk loaded", () => {
    beforeAll(loadColours);

    it("paints each role with its colour", () => {
      const on = createTheme(true);
      expect(on.ok("ok")).toBe(wrap(SGR.green, "ok"));
      expect(on.added("+")).toBe(wrap(SGR.green, "+"));
      expect(on.warn("w")).toBe(wrap(SGR.yellow, "w"));
      expect(on.error("e")).toBe(wrap(SGR.red, "e"));
      expect(on.removed("-")).toBe(wrap(SGR.red, "-"));
      expect(on.dim("d")).toBe(wrap(SGR.dim, "d"));
      expect(on.bold("b")).toBe(wrap(SGR.bold, "b"));
      expect(on.accent("a")).toBe(wrap(SGR.cyan, "a"));
    });

    it("never lets a colour bleed into the next line", () => {
      expect(createTheme(true).error("two\nlines")).toBe(`${wrap(SGR.red, "two")}\n${wrap(SGR.red, "lines")}`);
    });

    it("leaves text untouched when colours are off", () => {
      const off = createTheme(false);
      for (const s of ["", "plain", "two\nlines", "\u001B[32mgreen\u001B[39m"]) {
        for (const style of [off.ok, off.warn, off.error, off.dim, off.bold, off.accent, off.added, off.removed]) expect(style(s)).toBe(s);
      }
      expect(off.enabled).toBe(false);
    });
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
