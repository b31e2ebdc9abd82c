// A throwaway PostgreSQL server for the benchmarks and the chaos script, as test/helpers/postgres.ts starts one for the
// tests (that file is TypeScript, which these plain Node scripts cannot import): initdb in a temp folder, listening
// only on a Unix socket there, fsync off; as the postgres system user when run as root (PostgreSQL refuses root).
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

function binDir() {
  const debian = "/usr/lib/postgresql";
  const candidates = [process.env.PG_BIN, ...(existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)).map((v) => join(debian, v, "bin")) : [])];
  const dir = candidates.find((d) => d && existsSync(join(d, "initdb")));
  if (!dir) throw new Error("no PostgreSQL server binaries (initdb): apt-get install postgresql, or set PG_BIN");
  return dir;
}

/** Starts a server; resolves with `newDatabase()` (a URL per call), `stop()` and `start()` (the same folder again). */
export async function startPostgres() {
  const bin = binDir();
  const root = mkdtempSync(join(tmpdir(), "shipctl-pg-"));
  const data = join(root, "data");
  let as = (cmd, args) => [cmd, args];
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(root, uid, gid);
    as = (cmd, args) => ["setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--", cmd, ...args]];
  }
  execFileSync(...as(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]), { stdio: "ignore" });
  const url = (db) => `postgres://postgres@localhost/${db}?host=${encodeURIComponent(root)}`;
  let server;
  let n = 0;
  const start = async () => {
    server = spawn(...as(join(bin, "postgres"), ["-D", data, "-k", root, "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off"]), { stdio: "ignore" });
    for (;;) {
      if (server.exitCode !== null) throw new Error(`postgres exited ${server.exitCode}`);
      const c = new pg.Client({ connectionString: url("postgres") });
      try {
        await c.connect();
        await c.end();
        return;
      } catch {
        await c.end().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const stop = async () => {
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGINT");
    await exited;
  };
  await start();
  return {
    async newDatabase() {
      const name = `b${++n}`;
      const c = new pg.Client({ connectionString: url("postgres") });
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
      return url(name);
    },
    stop,
    start,
  };
}
