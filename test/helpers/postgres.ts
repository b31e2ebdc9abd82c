// A real PostgreSQL server for the shared-ledger tests, no mock: initdb in a temp folder, the server listening only on
// a Unix socket there (no port to collide on), fsync off (a test's data need not survive a crash of the machine),
// stopped after. PostgreSQL refuses to run as root, and CI runs as root: the server then runs as the `postgres` system
// user (setpriv), owning the folder. Without server binaries, a local run skips these tests loudly (which, why, how to
// install); under CI=true it never skips, it fails.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { tempDir } from "./cli.js";

const INSTALL_HINT = "install PostgreSQL's server (Debian/Ubuntu: `apt-get install postgresql`; macOS: `brew install postgresql@15`) or set PG_BIN to its bin folder";

/** The folder of initdb and postgres: PG_BIN, else the newest Debian /usr/lib/postgresql/<n>/bin, else pg_config's. */
export function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, "bin")));
  }
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    // no pg_config on PATH
  }
  return candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres")));
}

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

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new Error("running as root, and PostgreSQL refuses root: there is no `postgres` system user to run it as (useradd --system postgres)");
  }
}

export interface PostgresServer {
  /** A URL for a fresh database of its own (one per call). */
  newDatabase(): Promise<string>;
  /** The URL of a database, with a password in it (the server trusts every local connection and ignores it). */
  url(database: string, password?: string): string;
  /** Stops the server (a fast shutdown); `start` starts it again on the same folder. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(`no PostgreSQL server binaries: ${INSTALL_HINT}`);
  const root = tempDir("shipctl-pg-");
  const data = join(root, "data");
  const user = postgresUser();
  if (user) chownSync(root, user.uid, user.gid);
  // setpriv execs the command as postgres (no parent process in between), so a signal reaches the server itself.
  const as = (cmd: string, args: string[]): [string, string[]] =>
    user ? ["setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--", cmd, ...args]] : [cmd, args];
  execFileSync(...as(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]), { stdio: "ignore" });
  let server: ChildProcess | undefined;
  let databases = 0;
  const url = (database: string, password?: string) => `postgres://postgres${password ? `:${encodeURIComponent(password)}` : ""}@localhost/${database}?host=${encodeURIComponent(root)}`;

  const start = async () => {
    const [cmd, args] = as(join(bin, "postgres"), ["-D", data, "-k", root, "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]);
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    child.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    server = child;
    // Ready once it accepts a connection; a server that exits first says why.
    for (;;) {
      if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}): ${log}`);
      const client = new pg.Client({ connectionString: url("postgres") });
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    // SIGINT: a fast shutdown (open connections are closed).
    child.kill("SIGINT");
    await exited;
  };
  await start();
  return {
    url,
    async newDatabase() {
      const name = `t${++databases}`;
      const client = new pg.Client({ connectionString: url("postgres") });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
    start,
  };
}
