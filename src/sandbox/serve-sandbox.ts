// `shipctl sandbox`: starts the sandbox, prints where it listens, and serves until Ctrl-C or SIGTERM. The flags come
// checked from the command line (commands/sandbox/sandbox.ts).
import { resolve } from "node:path";
import type { Deps } from "../deps.js";
import { ExitCode, UsageError } from "../errors.js";
import { startSandbox, StateFileError, type RunningSandbox, type SandboxOptions } from "./server.js";

/** The sandbox's options as the command line gives them; `state` is resolved against the working folder here. */
export type ServePlan = Required<Pick<SandboxOptions, "port" | "host" | "latencyMs" | "applyMaxMs" | "shipmentShape">> &
  Pick<SandboxOptions, "token"> & {
    state?: string;
    /** Move shipments one lifecycle step this often (`--tick`); absent: only when asked (POST /_sandbox/tick). */
    tickSeconds?: number;
  };

export async function serveSandbox(deps: Deps, plan: ServePlan): Promise<ExitCode> {
  const { port, host } = plan;
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      ...plan,
      stateFile: plan.state === undefined ? undefined : resolve(deps.cwd, plan.state),
      tickMs: plan.tickSeconds === undefined ? undefined : plan.tickSeconds * 1000,
      // --quiet (global): no line per request.
      log: deps.globals.quiet ? undefined : (line) => deps.io.err(`${line}\n`),
    });
  } catch (err) {
    throw startFailure(err, port, host);
  }

  deps.io.out(deps.globals.json ? `${JSON.stringify({ url: sandbox.url, token: sandbox.token })}\n` : `${sandbox.url}\n`);
  deps.io.alert(`Sandbox listening on ${sandbox.url} (token: ${sandbox.token}${plan.state ? `, state: ${plan.state}` : ""}). Stop with Ctrl-C.\n`);
  if (!isLoopback(host)) deps.io.err("Warning: the sandbox is reachable from other machines, and its token is no secret.\n");

  // Ctrl-C and SIGTERM end it (it sends nothing, so no word of requests in flight).
  await stopRequested(deps.signal);
  await sandbox.close();
  deps.io.err("Sandbox stopped.\n");
  return ExitCode.Ok;
}

/** Resolves at the first Ctrl-C or SIGTERM (both abort deps.signal); the listener is removed so nothing keeps the process. */
function stopRequested(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolvePromise) => signal.addEventListener("abort", () => resolvePromise(), { once: true }));
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
