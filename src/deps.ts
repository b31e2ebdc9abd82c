// What every command's logic receives. systemDeps() is the real world; tests build their own.
import { systemClock, type Clock } from "./clock.js";
import { ExitCode, InterruptedError } from "./errors.js";
import { quietIO, systemIO, type IO } from "./output/io.js";
import { colorEnabled, createTheme, type Theme } from "./output/theme.js";
import { systemPrompter, type Prompter } from "./prompter.js";
import type { ApiClient } from "./api/client-types.js";
import type { Connection } from "./config/connection-types.js";

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
   * Called by a run that sends no writes (watch, which Ctrl-C is the way to end): the first Ctrl-C then says nothing
   * of requests in flight, and the run says itself that it stopped.
   */
  sendsNoWrites?(): void;
  /** Builds the connection (profile, token, tables); replaceable in tests. */
  connect?: (deps: Deps) => Promise<Connection>;
  /** Builds the API client from a connection; replaceable in tests. */
  makeApi?: (deps: Deps, connection: Connection) => Promise<ApiClient>;
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

/**
 * `exit` ends the process at a second Ctrl-C (tests give their own). It exits 130 itself rather than sending SIGINT
 * to its own process: on Windows that is a forced termination with exit code 1, which means "a bug".
 */
// eslint-disable-next-line no-restricted-properties -- a second Ctrl-C ends the run at once, whatever is pending: the one exit that cannot wait for main() to return
export function systemDeps(exit: (code: number) => void = process.exit): BaseDeps {
  // The signals (and the SIGINT handler behind them) are made when a command first asks for one: `--version` and
  // `--help` never do, and Node loads AbortController's module on first use. Until then Ctrl-C simply ends the run.
  let controller: AbortController | undefined;
  let writes: AbortController | undefined;
  let writesPossible = true;
  const onSigint = () => {
    if (controller!.signal.aborted) {
      // A second Ctrl-C: stop waiting. Every write in flight was recorded before it left, so it stays in flight.
      process.off("SIGINT", onSigint);
      exit(ExitCode.Interrupted);
      return;
    }
    if (writesPossible) {
      process.stderr.write(
        `\nInterrupted: starting nothing new; requests already sent get up to ${WRITE_WAIT_MS / 1000} s to answer, so what they did is recorded ` +
          "(Ctrl-C again to stop at once: they stay recorded as in flight)\n",
      );
    }
    controller!.abort(new InterruptedError("interrupted"));
    setTimeout(() => writes!.abort(new InterruptedError("interrupted")), WRITE_WAIT_MS).unref();
  };
  const ensure = () => {
    if (!controller) {
      controller = new AbortController();
      writes = new AbortController();
      process.on("SIGINT", onSigint);
    }
  };
  return {
    io: systemIO(),
    prompter: systemPrompter(),
    clock: systemClock,
    env: process.env,
    cwd: process.cwd(),
    get signal() {
      ensure();
      return controller!.signal;
    },
    get writeSignal() {
      ensure();
      return writes!.signal;
    },
    sendsNoWrites: () => void (writesPossible = false),
  };
}

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
      connection ??= (base.connect ?? defaultConnect)(deps);
      return connection;
    },
    api: () => {
      api ??= deps.connection().then((c) => (base.makeApi ?? defaultMakeApi)(deps, c));
      return api;
    },
    close: async () => {
      const client = await api?.catch(() => undefined);
      await client?.close().catch(() => undefined);
    },
  };
  return deps;
}

async function defaultConnect(deps: Deps): Promise<Connection> {
  const { resolveConnection } = await import("./config/connection.js");
  return resolveConnection(deps);
}

async function defaultMakeApi(deps: Deps, connection: Connection): Promise<ApiClient> {
  const { createApiClient } = await import("./api/client.js");
  return createApiClient({
    baseUrl: connection.baseUrl,
    baseUrlSetting: baseUrlSetting(connection),
    token: connection.token,
    userAgent: `shipctl/${deps.version}`,
    clock: deps.clock,
    debug: deps.globals.debug ? (line) => deps.debug(line) : undefined,
    signal: deps.signal,
    writeSignal: deps.writeSignal,
    network: { env: deps.env, caFile: connection.caFile },
  });
}

/** Where the connection's base URL was set, as a user would change it. */
function baseUrlSetting(connection: Connection): string {
  const from = connection.sources.baseUrl;
  if (from === "flag") return "--base-url";
  if (from === "env") return "SHIPCTL_BASE_URL";
  return `baseUrl of profile ${connection.profile}: shipctl config set baseUrl URL`;
}

/**
 * CI set (as CI services set it, `CI=true`), and not to "0" or "false": a job, where no one answers a prompt even when
 * it runs with a terminal (a pseudo-terminal given to the job), so it is as --no-input.
 */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}
