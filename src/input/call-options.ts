// How commands make their calls: interruptible by Ctrl-C, and telling the user on stderr when the client waits to
// retry (a rate-limited verification can take several seconds, which would otherwise look like a hang).
import type { CallOptions, RetryInfo } from "../api/client-types.js";
import type { Deps } from "../deps.js";

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
