// `shipctl due` on a large organization (issue 13, "Done when"): its list requests and wall time, beside a sequential
// walk of every page measured in the same run: `shipctl list shipments --all --limit 50 --ndjson`, the built CLI
// reading every page one after another at due's page size, which is what `due` would cost without bisecting and
// without pages in flight together. Goal: at least 4x faster.
//
// One organization, seeded through the sandbox's seed endpoint with N shipments (BENCH_DUE_SIZE, default 50,000), one
// every 10 minutes, the newest an hour old: about 347 days of history, of which due's default --created-after (180
// days) holds about half. A few recent ones are moved to Delivered and Arrived so that due has windows to list. The
// sandbox runs in its own process with 50 ms added to every /api/v1 answer (BENCH_LATENCY_MS). Each command runs
// BENCH_ROUNDS times (default 3); the medians are printed. `due --all-history` (every page, 8 at a time) is shown too.
// Each run's list requests are counted from the sandbox's request log. Needs `npm run build` first.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { control, runShipctl, startSandbox } from "./_sandbox.mjs";
import { median, printTable } from "./_stats.mjs";

const SIZE = Number(process.env.BENCH_DUE_SIZE ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const STEP_MS = 10 * 60_000;
const GOAL = 4;
const TOKEN = "bench-token";
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-due-"));

function cli(args, { url, token }) {
  return runShipctl(args, { url, token, config: join(work, "config") });
}

async function measure(name, args, target, ctl, check) {
  const times = [];
  const requests = [];
  for (let round = 0; round < ROUNDS; round++) {
    await ctl("DELETE", "/_sandbox/requests");
    const r = await cli(args, target);
    check(r);
    times.push(r.ms);
    requests.push((await ctl("GET", "/_sandbox/requests?method=GET&path=/api/v1/shipments")).data.length);
  }
  const result = { name, ms: median(times), requests: median(requests) };
  console.log(`${name}: ${result.requests} list requests, ${result.ms.toFixed(0)} ms (median of ${ROUNDS})`);
  return result;
}

const sandbox = await startSandbox({ token: TOKEN, latency: LATENCY_MS });
try {
  const { token } = await control(sandbox.url, TOKEN, "POST", "/_sandbox/organizations");
  const ctl = (method, path, body) => control(sandbox.url, token, method, path, body);
  const newest = Date.now() - 3_600_000;
  const seeded = await ctl("POST", "/_sandbox/shipments/seed", { count: SIZE, created_from: new Date(newest - (SIZE - 1) * STEP_MS).toISOString(), created_step_ms: STEP_MS, title_prefix: "Held" });
  await ctl("POST", `/_sandbox/shipments/${seeded.last_id}/status`, { status: "Arrived" });
  await ctl("POST", `/_sandbox/shipments/${seeded.last_id - 1}/status`, { status: "Delivered" });
  const target = { url: sandbox.url, token };
  const pages = Math.ceil(SIZE / 50);
  console.log(`${SIZE} shipments (${pages} pages of 50), one every 10 min; sandbox latency ${LATENCY_MS} ms per answer.`);

  const expectDue = (r) => {
    if (r.code !== 10) throw new Error(`due exited ${r.code}, not 10: ${r.err}`);
    const doc = JSON.parse(r.out);
    const ids = doc.due.map((i) => i.id);
    if (!ids.includes(seeded.last_id) || !ids.includes(seeded.last_id - 1)) throw new Error(`due missed the open windows: ${r.out.slice(0, 400)}`);
  };
  const sequential = await measure("sequential walk (list shipments --all --limit 50)", ["list", "shipments", "--all", "--limit", "50", "--ndjson"], target, ctl, (r) => {
    if (r.code !== 0) throw new Error(`list exited ${r.code}: ${r.err}`);
    const lines = r.out.trimEnd().split("\n").length;
    if (lines !== SIZE) throw new Error(`list printed ${lines} shipments, not ${SIZE}`);
  });
  const due = await measure("due (default --created-after 180d)", ["due", "--json"], target, ctl, expectDue);
  const all = await measure("due --all-history", ["due", "--all-history", "--json"], target, ctl, expectDue);

  printTable(`\nshipctl due, ${SIZE} shipments, ${LATENCY_MS} ms latency (baseline: the sequential walk)`, [
    ["due: list requests", due.requests, sequential.requests, "req"],
    ["due: wall time", due.ms, sequential.ms, "ms", `>= ${GOAL}x faster`],
    ["due --all-history: list requests", all.requests, sequential.requests, "req"],
    ["due --all-history: wall time", all.ms, sequential.ms, "ms"],
  ]);
  const speedup = sequential.ms / due.ms;
  console.log(`\ndue is ${speedup.toFixed(1)}x faster than the sequential walk (goal ${GOAL}x): ${speedup >= GOAL ? "met" : "NOT met"}.`);
  if (speedup < GOAL) process.exitCode = 1;
} finally {
  sandbox.child.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
