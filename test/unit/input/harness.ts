// Deps for unit tests of command logic: captured IO, scripted prompts, a fixed clock, a fake connection with chosen
// tables, and a fake ApiClient whose every method fails loudly unless the test gives it an answer.
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Deps } from "../../../src/deps.js";
import type { ApiClient } from "../../../src/api/types.js";
import type { Connection } from "../../../src/config/types.js";
import { SANDBOX_TABLES, type Tables } from "../../../src/contract/index.js";
import { createTestIO, type TestIO } from "../../../src/output/io.js";
import { scriptedPrompter } from "../../../src/prompter.js";
import { GALLERY } from "../../helpers/gallery.js";
import { tempDir } from "../../helpers/cli.js";

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
] as const;

export type FakeApi = ApiClient & { calls: Array<{ method: string; args: unknown[] }>; callsTo(method: string): unknown[][] };

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
  api?: Partial<ApiClient>;
  tables?: Tables;
  json?: boolean;
  /** A terminal on stdin and stdout (prompts allowed). */
  tty?: boolean;
  stdin?: string;
  answers?: Array<boolean | string>;
  cwd?: string;
  now?: Date;
  /** The config folder (ledger books of `address add` live there): a fresh one by default; share it for a rerun. */
  configDir?: string;
}

export interface TestDeps {
  deps: Deps;
  io: TestIO;
  api: FakeApi;
  prompter: ReturnType<typeof scriptedPrompter>;
  /** How many times the connection's tables were asked for (a table look-up may reach the network). */
  tablesLoads(): number;
}

export function testDeps(options: TestDepsOptions = {}): TestDeps {
  const io = createTestIO({ stdin: options.stdin, tty: options.tty });
  const prompter = scriptedPrompter(options.answers ?? []);
  const api = fakeApi(options.api);
  let loads = 0;
  const connection: Connection = {
    profile: "test",
    baseUrl: "http://127.0.0.1:9",
    token: "test-token",
    tables: async () => {
      loads++;
      return options.tables ?? SANDBOX_TABLES;
    },
    sources: { baseUrl: "env", token: "env", profile: "default" },
  };
  const now = options.now ?? new Date("2025-03-01T12:00:00Z");
  const base: BaseDeps = {
    io,
    prompter,
    clock: { now: () => now, sleep: async () => undefined },
    // Never the developer's own config folder: commands that keep a ledger book write there.
    env: { NO_COLOR: "1", SHIPCTL_CONFIG_DIR: options.configDir ?? tempDir("shipctl-unit-config-") },
    cwd: options.cwd ?? process.cwd(),
    signal: new AbortController().signal,
    connect: async () => connection,
    makeApi: async () => api,
  };
  const deps = createDeps(base, { ...DEFAULT_GLOBALS, json: options.json ?? false });
  return { deps, io, api, prompter, tablesLoads: () => loads };
}

export const UNCONFIRMED: Tables = { countries: [], services: [], source: "unconfirmed" };

/** A complete, valid address as the service wants it. */
export { GALLERY };

/** A valid shipment between two stored addresses (12 and 15), as commander hands over its flags. */
export const SHIPMENT_FLAGS = {
  title: "Blue Study",
  value: "1200",
  length: "30",
  height: "24",
  depth: "3",
  service: "1",
  fulfillmentAddressId: "12",
  destinationAddressId: "15",
};

/** The same address as commander hands over its flags. */
export const GALLERY_FLAGS = {
  name: "Gallery North",
  email: "ship@gallery.example",
  phone: "+12069536978",
  line1: "1 Main Street",
  city: "Seattle",
  region: "WA",
  postCode: "98101",
  country: "1",
};
