// Deps for running `report upload --batch` in-process against a fake API: no terminal, JSON output, a fixed clock,
// and a connection that needs no config (the tables are never asked for by reports).
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Deps } from "../../../src/deps.js";
import type { ApiClient } from "../../../src/api/types.js";
import { createTestIO, type TestIO } from "../../../src/output/io.js";
import { scriptedPrompter } from "../../../src/prompter.js";

export function batchDepsFor(api: unknown, now: Date): { deps: Deps; io: TestIO } {
  const io = createTestIO({ tty: false });
  const base: BaseDeps = {
    io,
    prompter: scriptedPrompter([]),
    clock: { now: () => now, sleep: async () => undefined },
    env: {},
    cwd: process.cwd(),
    signal: new AbortController().signal,
    connect: async () => ({
      profile: "t",
      baseUrl: "http://x",
      token: "t",
      tables: async () => {
        throw new Error("unused");
      },
      sources: { baseUrl: "env", token: "env", profile: "default" },
    }),
    makeApi: async () => api as ApiClient,
  };
  return { deps: createDeps(base, { ...DEFAULT_GLOBALS, json: true }), io };
}
