// A real PostgreSQL server for the shared-ledger tests, no mock (postgres-server.mjs starts it, in a temp folder the
// tests remove). Without server binaries, a local run skips these tests loudly (which, why, how to install); under
// CI=true it never skips, it fails.
import { findPostgresBin, INSTALL_HINT, startPostgres as startServer, type PostgresServer } from "./postgres-server.mjs";
import { tempDir } from "./cli.js";

export type { PostgresServer };

/**
 * Whether the suite can run. Without binaries: false, after saying loudly which suite is skipped and how to install;
 * under CI=true, it throws instead (CI never skips them).
 */
export function postgresAvailable(suite: string): boolean {
  if (findPostgresBin() !== undefined) return true;
  const why = `no PostgreSQL server binaries (initdb, postgres) found`;
  if (process.env.CI === "true") throw new Error(`${suite}: ${why}; CI never skips the shared-ledger tests: ${INSTALL_HINT}`);
  process.stderr.write(`\n*** SKIPPED: ${suite}: ${why}. These tests need a real PostgreSQL server: ${INSTALL_HINT}. ***\n\n`);
  return false;
}

export function startPostgres(): Promise<PostgresServer> {
  return startServer(tempDir("shipctl-pg-"));
}
