// The context a command's run gives the tables (profile-tables.ts): where the profile and service are, and the run's
// own ways of talking (warnings on stderr, --debug), stopping (Ctrl-C) and reaching the network (proxy variables, the
// profile's CA file), so the sandbox probe goes the way every request of the run goes. One builder for the commands
// that load or probe tables: the connection, `config tables show|import` and `auth status`.
import type { TablesContext } from "./profile-tables.js";
import type { ConfigStore } from "./store.js";

/** Where the tables are (the profile and its service), with the run's CA file. */
export type TablesPlace = Pick<TablesContext, "profile" | "baseUrl" | "token" | "askAgain"> & { caFile?: string };

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
