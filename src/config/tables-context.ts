// The context a command's run gives the tables (profile-tables.ts): where the profile and service are, and the run's
// own ways of talking (warnings on stderr, --debug), stopping (Ctrl-C) and reaching the network (proxy variables, the
// profile's CA file), so the sandbox probe goes the way every request of the run goes. One builder for the commands
// that load or probe tables: the connection, `config tables show|import` and `auth status`.
import type { TablesContext } from "./profile-tables.js";
import type { ConfigStore } from "./store.js";

export interface TablesPlace {
  profile: string;
  baseUrl: string;
  token?: string;
  caFile?: string;
  /** Ask even a service remembered as no sandbox (the `config tables` commands: it may have become one). */
  askAgain?: boolean;
}

/** What of a run's deps the tables use (the connection is resolved from no more than this). */
export interface TablesRun {
  env: NodeJS.ProcessEnv;
  io: { err(text: string): void };
  debug(line: string): void;
  signal?: AbortSignal;
}

export function tablesContext(deps: TablesRun, store: ConfigStore, place: TablesPlace): TablesContext {
  return {
    profile: place.profile,
    baseUrl: place.baseUrl,
    token: place.token,
    store,
    warn: (text) => deps.io.err(text),
    debug: (line) => deps.debug(line),
    signal: deps.signal,
    network: { env: deps.env, caFile: place.caFile },
    ...(place.askAgain ? { askAgain: true } : {}),
  };
}
