// Prompts only where a person can answer: both streams terminals, no --no-input, and not a CI job (CI set), which may
// be given a pseudo-terminal with no one behind it.
import { describe, expect, it } from "vitest";
import { createDeps, DEFAULT_GLOBALS, inCi, type BaseDeps } from "../../src/deps.js";
import { scriptedPrompter } from "../helpers/prompter.js";
import { fakeClock } from "../helpers/clock.js";
import { createTestIO } from "../helpers/test-io.js";

const unused = () => Promise.reject(new Error("canPrompt connects to nothing"));

function canPrompt(env: NodeJS.ProcessEnv, options: { tty?: boolean; input?: boolean } = {}): boolean {
  const base: BaseDeps = {
    io: createTestIO({ tty: options.tty ?? true }),
    prompter: scriptedPrompter([]),
    clock: fakeClock(),
    env: { NO_COLOR: "1", ...env },
    cwd: ".",
    signal: new AbortController().signal,
    connect: unused,
    makeApi: unused,
  };
  return createDeps(base, { ...DEFAULT_GLOBALS, input: options.input ?? true }).canPrompt();
}

describe("canPrompt", () => {
  it("asks on a terminal, not without one, nor with --no-input", () => {
    expect(canPrompt({})).toBe(true);
    expect(canPrompt({}, { tty: false })).toBe(false);
    expect(canPrompt({}, { input: false })).toBe(false);
  });

  it("never asks in a CI job, even with a terminal", () => {
    for (const value of ["true", "1", "TRUE", "woodpecker"]) expect(canPrompt({ CI: value }), value).toBe(false);
  });

  it("reads CI set to empty, 0 or false as not a CI job", () => {
    for (const value of ["", "0", "false", "False"]) {
      expect(inCi({ CI: value }), value).toBe(false);
      expect(canPrompt({ CI: value }), value).toBe(true);
    }
  });
});
