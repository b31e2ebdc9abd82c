// The real world's BaseDeps: this process's streams, prompts, clock, environment and Ctrl-C, and the connection and
// API client built from the profile. The one file below main.ts that names the folders building them (config/, api/):
// every other file receives them through Deps (deps.ts), so it stands above them all.
import { systemClock } from "./clock.js";
import { ExitCode, InterruptedError } from "./errors.js";
import { systemIO } from "./output/io.js";
import { systemPrompter } from "./prompter.js";
import type { ApiClient } from "./api/client-types.js";
import { WRITE_WAIT_MS, type BaseDeps, type Connection, type Deps } from "./deps.js";

/**
 * `exit` ends the process at a second Ctrl-C or SIGTERM (tests give their own). It exits 130 itself rather than sending SIGINT
 * to its own process: on Windows that is a forced termination with exit code 1, which means "a bug".
 */
// eslint-disable-next-line no-restricted-properties -- a second Ctrl-C ends the run at once, whatever is pending: the one exit that cannot wait for main() to return
export function systemDeps(exit: (code: number) => void = process.exit): BaseDeps {
  // The signals (and the SIGINT and SIGTERM handlers behind them) are made when a command first asks for one: `--version` and
  // `--help` never do, and Node loads AbortController's module on first use. Until then Ctrl-C simply ends the run.
  let controller: AbortController | undefined;
  let writes: AbortController | undefined;
  const writesInFlight = { count: 0 };
  // SIGTERM (`timeout`, `docker stop`, systemd, a CI job cancelled) stops a run as Ctrl-C does: what was sent is
  // waited for and recorded, the results and --json written, exit 130. Node's default ended the process at once.
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller!.signal.aborted) {
      // A second signal: stop waiting. Every write in flight was recorded before it left, so it stays in flight.
      stopListening();
      exit(ExitCode.Interrupted);
      return;
    }
    if (writesInFlight.count > 0) {
      process.stderr.write(
        `\n${signal === "SIGTERM" ? "Terminated (SIGTERM)" : "Interrupted"}: starting nothing new; requests already sent get up to ${WRITE_WAIT_MS / 1000} s to answer, so what they did is recorded ` +
          `(${signal === "SIGTERM" ? "a second SIGTERM or Ctrl-C" : "Ctrl-C again"} to stop at once: they stay recorded as in flight)\n`,
      );
    }
    controller!.abort(new InterruptedError("interrupted"));
    setTimeout(() => writes!.abort(new InterruptedError("interrupted")), WRITE_WAIT_MS).unref();
  };
  const stopListening = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  const ensure = () => {
    if (!controller) {
      controller = new AbortController();
      writes = new AbortController();
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
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
    writesInFlight,
    connect: systemConnect,
    makeApi: systemMakeApi,
  };
}

export async function systemConnect(deps: Deps): Promise<Connection> {
  return (await import("./config/connection.js")).resolveConnection(deps);
}

export async function systemMakeApi(deps: Deps, connection: Connection): Promise<ApiClient> {
  // Imported here, as the client is: a static import put a module of its own on the path of `--help`.
  const { profileFlag } = await import("./config/profile-name.js");
  return (await import("./api/client.js")).createApiClient({
    baseUrl: connection.baseUrl,
    baseUrlSetting: baseUrlSetting(connection, profileFlag(connection.profile)),
    profileFlag: profileFlag(connection.profile),
    token: connection.token,
    userAgent: `shipctl/${deps.version}`,
    clock: deps.clock,
    debug: deps.globals.debug ? (line) => deps.debug(line) : undefined,
    signal: deps.signal,
    writeSignal: deps.writeSignal,
    writesInFlight: deps.writesInFlight,
    network: { env: deps.env, caFile: connection.caFile },
  });
}

/** Where the connection's base URL was set, as a user would change it. */
function baseUrlSetting(connection: Connection, profileFlag: string): string {
  const from = connection.sources.baseUrl;
  if (from === "flag") return "--base-url";
  if (from === "env") return "SHIPCTL_BASE_URL";
  return `baseUrl of profile ${connection.profile}: shipctl config set baseUrl URL${profileFlag}`;
}
