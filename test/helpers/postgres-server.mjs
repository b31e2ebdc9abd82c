// A throwaway PostgreSQL server, one for the shared-ledger tests (postgres.ts), the benchmarks and the chaos script
// (plain JavaScript, so those Node scripts import it as the tests do): initdb in a folder of its own, the server
// listening only on a Unix socket there (no port to collide on), fsync off (its data need not survive a crash of the
// machine). PostgreSQL refuses to run as root, and CI runs as root: the server then runs as the `postgres` system user
// (setpriv), owning the folder.
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export const INSTALL_HINT =
  "install PostgreSQL's server (Debian/Ubuntu: `apt-get install postgresql`; macOS: `brew install postgresql@15`) or set PG_BIN to its bin folder";

/** The folder of initdb and postgres: PG_BIN, else the newest Debian /usr/lib/postgresql/<n>/bin, else pg_config's. */
export function findPostgresBin() {
  const candidates = [];
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

function postgresUser() {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new Error("running as root, and PostgreSQL refuses root: there is no `postgres` system user to run it as (useradd --system postgres)");
  }
}

/** Starts a server in `root`, or else in a new temp folder that close() removes. */
export async function startPostgres(given) {
  const root = given ?? mkdtempSync(join(tmpdir(), "shipctl-pg-"));
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(`no PostgreSQL server binaries: ${INSTALL_HINT}`);
  const data = join(root, "data");
  const user = postgresUser();
  if (user) chownSync(root, user.uid, user.gid);
  // setpriv execs the command as postgres (no parent process in between), so a signal reaches the server itself.
  const as = (cmd, args) => (user ? ["setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--", cmd, ...args]] : [cmd, args]);
  execFileSync(...as(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]), { stdio: "ignore" });
  let server;
  let databases = 0;
  const url = (database, password) => `postgres://postgres${password ? `:${encodeURIComponent(password)}` : ""}@localhost/${database}?host=${encodeURIComponent(root)}`;

  const start = async () => {
    const [cmd, args] = as(join(bin, "postgres"), ["-D", data, "-k", root, "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]);
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    child.stderr.on("data", (d) => (log += d.toString()));
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
    // A folder of its own left behind cost 80 MB of the temp folder per chaos run or benchmark.
    async close() {
      await stop();
      if (given === undefined) rmSync(root, { recursive: true, force: true });
    },
  };
}
