// How commands make their calls: interruptible by Ctrl-C, and telling the user on stderr when the client waits to
// retry (a rate-limited verification can take several seconds, which would otherwise look like a hang).
import type { CallOptions } from "../api/types.js";
import type { Deps } from "../deps.js";

export function callOptions(deps: Deps, what: string): CallOptions {
  return {
    signal: deps.signal,
    onRetry: (info) => {
      const seconds = (info.delayMs / 1000).toFixed(1);
      deps.io.err(`${what}: ${info.reason}; retrying in ${seconds} s (retry ${info.attempt})\n`);
    },
  };
}
