// Deps for unit tests of command logic: captured IO, scripted prompts, a clock that never waits, and a connection
// with chosen tables behind the real API client over stubbed HTTP (http-stubs.ts: a request without a stub, or a
// stub left unused, fails the test). Or, with `realConnection`, the connection a run would resolve from its
// environment and config folder.
import type { Clock } from "../../src/clock.js";
import { systemConnect, systemMakeApi } from "../../src/system-deps.js";
import { SANDBOX_TABLES, type Tables } from "../../src/contract/index.js";
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Connection, type Deps, type GlobalOptions } from "../../src/deps.js";
import { scriptedPrompter } from "./prompter.js";
import { fakeClock } from "./clock.js";
import { createTestIO, type TestIO } from "./test-io.js";
import { tempDir } from "./cli.js";
import { httpStubs, stubbedClient, type HttpStubs } from "./http-stubs.js";

export interface TestDepsOptions {
  /** The stubs the API client answers from (a fresh registry by default; see TestDeps.http). */
  http?: HttpStubs;
  /** Retries of the API client for calls safe to retry (its default, 4, unless given). */
  retries?: number;
  /** Resolve the connection and build the API client as a run does, from `env` and the config folder. */
  realConnection?: boolean;
  /** The connection's tables (the sandbox's by default). */
  tables?: Tables;
  token?: string;
  /** --json (short for globals.json). */
  json?: boolean;
  globals?: Partial<GlobalOptions>;
  /** A terminal on stdin and stdout (prompts allowed). */
  tty?: boolean;
  stdin?: string;
  /** The prompts' answers, in order; an unexpected prompt fails the test. */
  answers?: Array<boolean | string>;
  /** Added to NO_COLOR=1. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** A fixed clock at `now` by default (fakeClock). */
  clock?: Clock;
  now?: Date;
  signal?: AbortSignal;
  /** The config folder (ledgers of `address add` live there): a fresh one by default; share it for a rerun. */
  configDir?: string;
}

export interface TestDeps {
  deps: Deps;
  io: TestIO;
  /** The HTTP stubs under the API client: register answers on it, read what was sent. */
  http: HttpStubs;
  prompter: ReturnType<typeof scriptedPrompter>;
  /** How many times the connection's tables were asked for (a table look-up may reach the network). */
  tablesLoads(): number;
}

export function testDeps(options: TestDepsOptions = {}): TestDeps {
  const io = createTestIO({ stdin: options.stdin, tty: options.tty });
  const prompter = scriptedPrompter(options.answers ?? []);
  const http = options.http ?? httpStubs();
  const clock = options.clock ?? fakeClock(options.now ?? new Date("2025-03-01T12:00:00Z"));
  let loads = 0;
  const connection: Connection = {
    profile: "default",
    baseUrl: "http://127.0.0.1:9",
    token: options.token ?? "test-token",
    tables: async () => {
      loads++;
      return options.tables ?? SANDBOX_TABLES;
    },
    sources: { baseUrl: "env", token: "env", profile: "default" },
    ledger: { kind: "local" },
  };
  const base: BaseDeps = {
    io,
    prompter,
    clock,
    // Never the developer's own config folder: commands that keep a ledger write there.
    env: { NO_COLOR: "1", SHIPCTL_CONFIG_DIR: options.configDir ?? tempDir("shipctl-unit-config-"), ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    ...(options.realConnection ? { connect: systemConnect, makeApi: systemMakeApi } : {
          connect: async () => connection,
          makeApi: async (deps: Deps) =>
            stubbedClient(http, deps.clock, {
              token: connection.token,
              retries: options.retries,
              signal: deps.signal,
              writeSignal: deps.writeSignal,
              debug: deps.globals.debug ? (line) => deps.debug(line) : undefined,
            }),
        }),
  };
  const deps = createDeps(base, { ...DEFAULT_GLOBALS, json: options.json ?? false, ...options.globals });
  return { deps, io, http, prompter, tablesLoads: () => loads };
}
