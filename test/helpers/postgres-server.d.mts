// The types of postgres-server.mjs (plain JavaScript, so the benchmarks and the chaos script import it too).
export const INSTALL_HINT: string;
export function findPostgresBin(): string | undefined;

export interface PostgresServer {
  /** A URL for a fresh database of its own (one per call). */
  newDatabase(): Promise<string>;
  /** The URL of a database, with a password in it (the server trusts every local connection and ignores it). */
  url(database: string, password?: string): string;
  /** Stops the server (a fast shutdown); `start` starts it again on the same folder. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server for good, and removes its folder when startPostgres made it. */
  close(): Promise<void>;
}

export function startPostgres(root?: string): Promise<PostgresServer>;
