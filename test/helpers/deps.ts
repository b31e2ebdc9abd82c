// Deps for unit tests of command logic: captured IO, scripted prompts, a clock that never waits, and a connection
// with chosen tables behind an API client of the test's choosing: a fake whose every method fails loudly unless the
// test gives it an answer, or a whole stand-in (a fake service). Or, with `realConnection`, the connection a run
// would resolve from its environment and config folder.
import type { ApiClient } from "../../src/api/client-types.js";
import type { Clock } from "../../src/clock.js";
import type { Connection } from "../../src/config/connection-types.js";
import { SANDBOX_TABLES, type Tables } from "../../src/contract/index.js";
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Deps, type GlobalOptions } from "../../src/deps.js";
import { scriptedPrompter } from "../../src/prompter.js";
import { fakeClock } from "./clock.js";
import { createTestIO, type TestIO } from "./test-io.js";
import { tempDir } from "./cli.js";

const API_METHODS = [
  "verifyAddress",
  "createAddress",
  "updateAddress",
  "getAddress",
  "listAddresses",
  "createShipments",
  "updateShipment",
  "getShipment",
  "listShipments",
  "nextPage",
  "priceShipments",
  "finalizeCheckout",
  "uploadReport",
  "rawRequest",
] as const;

export type FakeApi = ApiClient & { calls: Array<{ method: string; args: unknown[] }>; callsTo(method: string): unknown[][] };

/** An ApiClient that records every call and answers with `answers`; a method without one fails the test. */
export function fakeApi(answers: Partial<ApiClient> = {}): FakeApi {
  const calls: FakeApi["calls"] = [];
  const api: Record<string, unknown> = {
    calls,
    callsTo: (method: string) => calls.filter((c) => c.method === method).map((c) => c.args),
    close: async () => undefined,
  };
  for (const method of API_METHODS) {
    api[method] = async (...args: unknown[]) => {
      calls.push({ method, args });
      const answer = answers[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
      if (!answer) throw new Error(`unexpected call to ${method}`);
      return answer(...args);
    };
  }
  return api as unknown as FakeApi;
}

export interface TestDepsOptions {
  /** Answers of the fake API client (fakeApi). */
  api?: Partial<ApiClient>;
  /** A whole stand-in for the API client, used as it is (instead of fakeApi). */
  client?: object;
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
  /** The config folder (ledger books of `address add` live there): a fresh one by default; share it for a rerun. */
  configDir?: string;
}

export interface TestDeps {
  deps: Deps;
  io: TestIO;
  /** The fake API client (an empty one when the test gave a `client` or `realConnection`). */
  api: FakeApi;
  prompter: ReturnType<typeof scriptedPrompter>;
  /** How many times the connection's tables were asked for (a table look-up may reach the network). */
  tablesLoads(): number;
}

export function testDeps(options: TestDepsOptions = {}): TestDeps {
  const io = createTestIO({ stdin: options.stdin, tty: options.tty });
  const prompter = scriptedPrompter(options.answers ?? []);
  const api = fakeApi(options.api);
  const client = (options.client ?? api) as ApiClient;
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
  };
  const base: BaseDeps = {
    io,
    prompter,
    clock: options.clock ?? fakeClock(options.now ?? new Date("2025-03-01T12:00:00Z")),
    // Never the developer's own config folder: commands that keep a ledger book write there.
    env: { NO_COLOR: "1", SHIPCTL_CONFIG_DIR: options.configDir ?? tempDir("shipctl-unit-config-"), ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    ...(options.realConnection ? {} : { connect: async () => connection, makeApi: async () => client }),
  };
  const deps = createDeps(base, { ...DEFAULT_GLOBALS, json: options.json ?? false, ...options.globals });
  return { deps, io, api, prompter, tablesLoads: () => loads };
}
