// `shipctl sandbox`: starts the sandbox, prints where it listens, and serves until Ctrl-C or SIGTERM.
import { resolve } from "node:path";
import type { Deps } from "../../deps.js";
import { ExitCode, UsageError } from "../../errors.js";
import { DEFAULT_APPLY_MAX_MS, SANDBOX_DEFAULT_PORT } from "../../sandbox/defaults.js";
import { startSandbox, StateFileError, type RunningSandbox } from "../../sandbox/server.js";

export interface SandboxFlags {
  port?: string;
  host?: string;
  token?: string;
  state?: string;
  latency?: string;
  applyMax?: string;
  quiet?: boolean;
}

function wholeNumber(flag: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim()) || Number(text) > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max} (got "${text}")`);
  }
  return Number(text);
}

export async function run(deps: Deps, _args: string[], flags: SandboxFlags): Promise<ExitCode> {
  const port = wholeNumber("--port", flags.port, SANDBOX_DEFAULT_PORT, 65_535);
  const latencyMs = wholeNumber("--latency", flags.latency, 0, 600_000);
  const applyMaxMs = wholeNumber("--apply-max", flags.applyMax, DEFAULT_APPLY_MAX_MS, 600_000);
  if (flags.token !== undefined && !/^\S+$/.test(flags.token)) throw new UsageError("--token must be non-empty and contain no spaces");
  const host = flags.host ?? "127.0.0.1";

  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      port,
      host,
      token: flags.token,
      stateFile: flags.state === undefined ? undefined : resolve(deps.cwd, flags.state),
      latencyMs,
      applyMaxMs,
      log: flags.quiet ? undefined : (line) => deps.io.err(`${line}\n`),
    });
  } catch (err) {
    throw startFailure(err, port, host);
  }

  deps.io.out(deps.globals.json ? `${JSON.stringify({ url: sandbox.url, token: sandbox.token })}\n` : `${sandbox.url}\n`);
  deps.io.err(`Sandbox listening on ${sandbox.url} (token: ${sandbox.token}${flags.state ? `, state: ${flags.state}` : ""}). Stop with Ctrl-C.\n`);
  if (!isLoopback(host)) deps.io.err("Warning: the sandbox is reachable from other machines, and its token is no secret.\n");

  await stopRequested(deps.signal);
  await sandbox.close();
  deps.io.err("Sandbox stopped.\n");
  return ExitCode.Ok;
}

/** Resolves at the first Ctrl-C (deps.signal) or SIGTERM; the listener is removed so nothing keeps the process. */
function stopRequested(signal: AbortSignal): Promise<void> {
  return new Promise((resolvePromise) => {
    const done = () => {
      process.off("SIGTERM", done);
      signal.removeEventListener("abort", done);
      resolvePromise();
    };
    if (signal.aborted) return done();
    process.on("SIGTERM", done);
    signal.addEventListener("abort", done, { once: true });
  });
}

function startFailure(err: unknown, port: number, host: string): Error {
  if (err instanceof StateFileError) return new UsageError(err.message);
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") return new UsageError(`port ${port} on ${host} is already in use`, { hint: "Pick another with --port, or --port 0 for a free one." });
  if (code === "EACCES") return new UsageError(`not allowed to listen on ${host}:${port}`, { hint: "Ports below 1024 need privileges: pick a higher --port." });
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") return new UsageError(`cannot listen on host "${host}": no such local address`);
  return err as Error;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}
