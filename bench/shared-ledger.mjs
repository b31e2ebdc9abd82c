// The team's ledger on PostgreSQL against the local one (issue 23): `shipctl shipment create --csv` of a 1,000-row
// sheet against a sandbox adding 20 ms per request, each run a new organization and a new ledger, once with the local
// ledger (files in the state folder) and once with a PostgreSQL ledger (a server started here on a Unix socket,
// fsync off like the tests'; a managed database adds its network round trip to each claim). Rounds alternate the two,
// so machine noise falls on both. Goal: the PostgreSQL ledger at least 0.9x the local ledger's rows per second.
// BENCH_ROUNDS (default 3), BENCH_SHARED_ROWS (default 1000). Needs `npm run build` first.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { control, runShipctl, startSandbox } from "./_sandbox.mjs";
import { startPostgres } from "../test/helpers/postgres-server.mjs";
import { median, printTable } from "./_stats.mjs";
import { shipmentRows, toCsv } from "../fixtures/csv/generate.mjs";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ROWS = Number(process.env.BENCH_SHARED_ROWS ?? 1000);
const LATENCY_MS = 20;
const TOKEN = "bench-token";
const GOAL = 0.9;
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-shared-"));

async function once(url, csv, ledger) {
  const token = (await control(url, TOKEN, "POST", "/_sandbox/organizations")).token;
  const dir = mkdtempSync(join(work, "run-"));
  const copy = join(dir, "sheet.csv");
  copyFileSync(csv, copy);
  const env = { SHIPCTL_STATE_DIR: join(dir, "state"), SHIPCTL_LOOK_DAYS: "0", ...(ledger ? { SHIPCTL_LEDGER: ledger, SHIPCTL_ORGANIZATION: "bench" } : {}) };
  const r = await runShipctl(["shipment", "create", "--csv", copy, "--json"], { url, token, config: join(dir, "config"), env });
  // The run's folder stays until the bench ends: see "Removing files slows the next run" in docs/development.md.
  if (r.code !== 0) throw new Error(`shipctl exited ${r.code}\n${r.err.slice(-2000)}`);
  const { created } = JSON.parse(r.out).counts;
  if (created !== ROWS) throw new Error(`shipctl created ${created} of ${ROWS}`);
  return ROWS / (r.ms / 1000);
}

const sandbox = await startSandbox({ token: TOKEN, latency: LATENCY_MS });
const postgres = await startPostgres();
try {
  const csv = join(work, "sheet.csv");
  writeFileSync(csv, toCsv(shipmentRows(ROWS, { seed: ROWS, titlePrefix: "Team" })));
  const local = [];
  const shared = [];
  for (let i = 0; i < rounds; i++) {
    local.push(await once(sandbox.url, csv, undefined));
    shared.push(await once(sandbox.url, csv, await postgres.newDatabase()));
  }
  const ratio = median(shared) / median(local);
  printTable(`${ROWS} rows, sandbox +${LATENCY_MS} ms/request, median of ${rounds} (node ${process.version})`, [
    ["shipment create --csv, PostgreSQL ledger vs local ledger", median(shared), median(local), "rows/s", `>= ${GOAL}x ${ratio >= GOAL ? "met" : "MISSED"}`],
  ]);
  if (ratio < GOAL) process.exitCode = 1;
} finally {
  sandbox.child.kill("SIGTERM");
  await postgres.close();
  rmSync(work, { recursive: true, force: true });
}
