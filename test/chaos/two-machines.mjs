// Two machines, one sheet, one PostgreSQL ledger, under faults and kills (issue 23), not part of `npm test`:
//   node test/chaos/two-machines.mjs [TRIALS]      (default 20; CHAOS_ROWS, default 500; needs `npm run build`)
// Each trial: a new sandbox organization with faults queued on creates (lost answers, resets, 500s, 429s), a new
// database, and two "machines" (config, state and a copy of the sheet each) running `shipment create --csv` at once.
// While they run, one of them is killed (SIGKILL) or interrupted (SIGINT) at a random moment; each is then run again
// until it exits 0. Then every shipment of the organization is read: a title twice is a duplicate, a title missing
// is lost. Exits 1 when any trial has either, or a machine never finishes.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { control, startSandbox } from "../../bench/_sandbox.mjs";
import { startPostgres } from "../helpers/postgres-server.mjs";
import { shipmentRows, toCsv } from "../../fixtures/csv/generate.mjs";

const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "shipctl.js");
const TRIALS = Number(process.argv[2] ?? 20);
const ROWS = Number(process.env.CHAOS_ROWS ?? 500);
/** Reruns of one machine before the trial counts as stuck: each rerun settles what is in flight, so few are needed. */
const MAX_RUNS = Number(process.env.CHAOS_MAX_RUNS ?? 30);
const TOKEN = "chaos-token";
const FAULTS = [
  ["reset-after", 3],
  ["500-after", 2],
  ["reset-before", 2],
  ["500", 3],
  ["429", 3],
];
const work = mkdtempSync(join(tmpdir(), "shipctl-chaos-"));
const pick = (n) => Math.floor(Math.random() * n);

function runMachine(machine, sheet, url, token) {
  const child = spawn(process.execPath, [bin, "shipment", "create", "--csv", sheet], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NO_COLOR: "1", CI: "true", SHIPCTL_CONFIG_DIR: join(machine.dir, "config"), SHIPCTL_STATE_DIR: join(machine.dir, "state"), SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: token, SHIPCTL_LOOK_DAYS: "0", ...machine.ledgerEnv },
  });
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (err = (err + d).slice(-4000)));
  const done = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, err })));
  return { child, done };
}

async function titles(url, token) {
  const counts = new Map();
  for (let page = 1; ; page++) {
    const body = await control(url, token, "GET", `/api/v1/shipments?page=${page}&limit=50`);
    for (const s of body.data) counts.set(s.title, (counts.get(s.title) ?? 0) + 1);
    if (body.links.next === null) return counts;
  }
}

async function trial(n, sandbox, postgres, csv, expected) {
  const began = Date.now();
  const { token } = await control(sandbox.url, TOKEN, "POST", "/_sandbox/organizations");
  for (const [kind, count] of FAULTS) await control(sandbox.url, token, "POST", "/_sandbox/faults", { method: "POST", path: "/api/v1/shipments", kind, count });
  const db = await postgres.newDatabase();
  const machines = ["a", "b"].map((name) => {
    const dir = join(work, `t${n}`, name);
    mkdirSync(join(dir, "sheets"), { recursive: true });
    const sheet = join(dir, "sheets", "sheet.csv");
    copyFileSync(csv, sheet);
    return { dir, sheet, ledgerEnv: { SHIPCTL_LEDGER: db, SHIPCTL_ORGANIZATION: "chaos" } };
  });
  const kill = { victim: pick(2), signal: pick(2) === 0 ? "SIGKILL" : "SIGINT", afterMs: 500 + pick(4000) };
  const runs = [0, 0];
  const finish = async (i, first) => {
    let r = await first;
    runs[i]++;
    while (r.code !== 0) {
      if (runs[i] >= MAX_RUNS && process.env.CHAOS_VERBOSE) {
        const c = new (await import("pg")).default.Client({ connectionString: db });
        await c.connect();
        const { rows } = await c.query("SELECT key, input, state, machine, pid FROM shipctl_entries WHERE state->>'state' <> 'created' LIMIT 20");
        console.log(JSON.stringify(rows, null, 1));
        await c.end();
      }
      if (runs[i] >= MAX_RUNS) throw new Error(`machine ${i} never exited 0 in ${MAX_RUNS} runs; last exit ${r.code ?? r.signal}:\n${r.err}`);
      // Another machine's rows in flight are refused (exit 2) until that run is over: wait a moment, as a person would.
      await new Promise((res) => setTimeout(res, 500 + pick(1500)));
      r = await runMachine(machines[i], machines[i].sheet, sandbox.url, token).done;
      runs[i]++;
      if (process.env.CHAOS_VERBOSE) console.log(`  machine ${"ab"[i]} run ${runs[i]}: exit ${r.code ?? r.signal} ${r.code === 0 ? "" : r.err.trim().split("\n").filter((l) => /^Error/.test(l)).pop() ?? ""}`);
    }
  };
  const started = machines.map((m) => runMachine(m, m.sheet, sandbox.url, token));
  setTimeout(() => started[kill.victim].child.kill(kill.signal), kill.afterMs);
  await Promise.all(started.map((s, i) => finish(i, s.done)));
  const counts = await titles(sandbox.url, token);
  const duplicates = [...counts.values()].filter((c) => c > 1).reduce((a, c) => a + c - 1, 0);
  const lost = expected.filter((t) => !counts.has(t)).length;
  console.log(`trial ${n}: ${kill.signal} machine ${"ab"[kill.victim]} after ${kill.afterMs} ms; runs a=${runs[0]} b=${runs[1]}; shipments ${[...counts.values()].reduce((a, c) => a + c, 0)}; duplicates ${duplicates}; lost ${lost}; ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return { duplicates, lost };
}

const sandbox = await startSandbox({ token: TOKEN });
const postgres = await startPostgres();
let bad = 0;
try {
  const rows = shipmentRows(ROWS, { seed: 2323, titlePrefix: "Chaos" });
  const csv = join(work, "sheet.csv");
  writeFileSync(csv, toCsv(rows));
  const expected = rows.map((r) => r.title);
  for (let n = 1; n <= TRIALS; n++) {
    const r = await trial(n, sandbox, postgres, csv, expected);
    if (r.duplicates > 0 || r.lost > 0) bad++;
  }
  console.log(`${TRIALS} trials of ${ROWS} rows on two machines: ${bad === 0 ? "0 duplicates, 0 lost in every trial" : `${bad} trials with duplicates or lost rows`}`);
} catch (e) {
  bad++;
  console.error(e instanceof Error ? e.message : e);
} finally {
  sandbox.child.kill("SIGTERM");
  await postgres.close();
  if (bad === 0 || !process.env.CHAOS_VERBOSE) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work} for a look`);
}
process.exitCode = bad === 0 ? 0 : 1;
