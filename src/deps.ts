// What every command's logic receives, and how its calls to the service are made. system-deps.ts builds the real
// world's (it alone names the folders that build a connection and a client); tests build their own.
import type { Clock } from "./clock.js";
import { quietIO, type IO } from "./output/io.js";
import { colorEnabled, createTheme, type Theme } from "./output/theme.js";
import type { Prompter } from "./prompter.js";
import type { ApiClient, CallOptions, RetryInfo } from "./api/client-types.js";
import type { Tables } from "./contract/index.js";

/** Flags that every command accepts (defined on the program). */
export interface GlobalOptions {
  json: boolean;
  profile?: string;
  baseUrl?: string;
  debug: boolean;
  /** false with --no-color. */
  color: boolean;
  /** false with --no-input: never prompt. */
  input: boolean;
  /** --quiet: errors and the one-line summary only on stderr (deps.io is quietIO). */
  quiet: boolean;
}

/** Where a resolved setting came from: precedence is flag > env > profile. */
export type Source = "flag" | "env" | "profile" | "default";

/** Everything needed to talk to the service, resolved from flags, environment and the profile. */
export interface Connection {
  profile: string;
  baseUrl: string;
  token: string;
  /**
   * The Country and Service tables that apply to this service: the sandbox's own when the base URL is a sandbox,
   * otherwise the profile's (source "imported"/"confirmed"), or empty tables with source "unconfirmed".
   * Loaded on first use (it may ask the service once), so commands that only take integers never pay for it.
   */
  tables(): Promise<Tables>;
  sources: { baseUrl: Source; token: Source; profile: Source };
  /** The profile's CA file (absolute path), trusted besides Node's own CAs. */
  caFile?: string;
  /**
   * Where the organization's ledger is (local, or a team's PostgreSQL database) and the organization's name there;
   * resolveConnection always sets it (unit tests' stubs leave it out: the local store). Read in config/ledger-setting.ts.
   */
  ledger?: LedgerSettings;
}

/** Where an organization's ledger is: the state folder's files, or a team's PostgreSQL database and its name there. */
export type LedgerSettings = { kind: "local" } | { kind: "postgres"; url: string; organization: string };

export const DEFAULT_GLOBALS: GlobalOptions = { json: false, debug: false, color: true, input: true, quiet: false };

/** What exists before the command line is parsed. */
export interface BaseDeps {
  io: IO;
  prompter: Prompter;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Aborted when the run must stop (the first Ctrl-C): nothing new starts, and reads, address checks and photo
   * fitting in flight end at once; writes already sent are given time to answer (writeSignal), then the run records
   * them and exits 130.
   */
  signal: AbortSignal;
  /**
   * Aborted when a stopping run has waited long enough for its writes in flight (WRITE_WAIT_MS), or never in tests
   * that do not give one. A second Ctrl-C ends the process at once; its writes stay recorded as in flight.
   */
  writeSignal?: AbortSignal;
  /**
   * The writes that must not be repeated now on the wire (the API client counts them): the first Ctrl-C speaks of
   * requests already sent only when there are some, so a run stopped while reading or checking ends silently.
   */
  writesInFlight?: { count: number };
  /** Builds the connection (profile, token, tables): system-deps.ts's, or a test's own. */
  connect: (deps: Deps) => Promise<Connection>;
  /** Builds the API client from a connection: system-deps.ts's, or a test's own. */
  makeApi: (deps: Deps, connection: Connection) => Promise<ApiClient>;
}

export interface Deps extends BaseDeps {
  version: string;
  globals: GlobalOptions;
  /** Colours for stdout (data) and stderr (talk). */
  theme: { out: Theme; err: Theme };
  /** A person can answer a prompt: stdin and stdout are terminals, --no-input was not given and CI is not set. */
  canPrompt(): boolean;
  /** Writes a debug line to stderr when --debug is on (callers redact secrets first). */
  debug(line: string): void;
  /** The resolved connection (throws AuthError when not logged in). Memoised. */
  connection(): Promise<Connection>;
  /** The API client for the connection. Memoised. */
  api(): Promise<ApiClient>;
  /** Closes the API client's connections if one was made. */
  close(): Promise<void>;
}

/** [assume] How long a stopping run waits for the answers of writes already sent: the service's usual answer time. */
export const WRITE_WAIT_MS = 30_000;

export function createDeps(base: BaseDeps, globals: GlobalOptions): Deps {
  let connection: Promise<Connection> | undefined;
  let api: Promise<ApiClient> | undefined;
  const deps: Deps = {
    ...base,
    io: globals.quiet ? quietIO(base.io) : base.io,
    version: __SHIPCTL_VERSION__,
    globals,
    theme: {
      out: createTheme(colorEnabled(base.io.stdoutIsTTY, base.env, globals.color)),
      err: createTheme(colorEnabled(base.io.stderrIsTTY, base.env, globals.color)),
    },
    canPrompt: () => globals.input && !inCi(base.env) && base.io.stdinIsTTY && base.io.stdoutIsTTY,
    debug: (line) => {
      if (globals.debug) base.io.err(`[debug] ${line}\n`);
    },
    connection: () => {
      connection ??= base.connect(deps);
      return connection;
    },
    api: () => {
      api ??= deps.connection().then((c) => base.makeApi(deps, c));
      return api;
    },
    close: async () => {
      const client = await api?.catch(() => undefined);
      await client?.close().catch(() => undefined);
    },
  };
  return deps;
}

/**
 * CI set (as CI services set it, `CI=true`), and not to "0" or "false": a job, where no one answers a prompt even when
 * it runs with a terminal (a pseudo-terminal given to the job), so it is as --no-input.
 */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

// How commands make their calls: interruptible by Ctrl-C, and telling the user on stderr when the client waits to
// retry (a rate-limited verification can take several seconds, which would otherwise look like a hang).

/** "rate limited; retrying in 1.2 s (retry 1)": `attempt` counts the first try, so the first retry is attempt 2. */
export function retryNote(info: RetryInfo): string {
  return `${info.reason}; retrying in ${(info.delayMs / 1000).toFixed(1)} s (retry ${info.attempt - 1})`;
}

export function callOptions(deps: Deps, what: string): CallOptions {
  return {
    signal: deps.signal,
    onRetry: (info) => deps.io.err(`${what}: ${retryNote(info)}\n`),
  };
}
