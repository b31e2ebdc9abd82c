// Deps for running `report upload` in-process against a fake API: no terminal, JSON output, a fixed clock, a config
// folder of its own (single uploads keep their journal there), and a connection that needs no config (a service that
// is not on loopback is never asked for its tables).
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Deps } from "../../../src/deps.js";
import type { ApiClient } from "../../../src/api/types.js";
import type { Clock } from "../../../src/clock.js";
import { createTestIO, type TestIO } from "../../../src/output/io.js";
import { scriptedPrompter } from "../../../src/prompter.js";
import { tempDir } from "../../helpers/cli.js";

export function batchDepsFor(api: unknown, now: Date, extra: { signal?: AbortSignal; configDir?: string; clock?: Clock } = {}): { deps: Deps; io: TestIO } {
  const io = createTestIO({ tty: false });
  const base: BaseDeps = {
    io,
    prompter: scriptedPrompter([]),
    clock: extra.clock ?? { now: () => now, sleep: async () => undefined },
    env: { SHIPCTL_CONFIG_DIR: extra.configDir ?? tempDir("shipctl-config-") },
    cwd: process.cwd(),
    signal: extra.signal ?? new AbortController().signal,
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
