// Settling one lost create request (issue 10, "And at scale"): the list pages (GET /api/v1/shipments) and the wall time
// of the rerun that settles it, in organizations holding 1,000, 10,000 and 50,000 shipments, each beside the full scan
// of the same organization measured in the same run: `shipctl list shipments --all --limit 50 --ndjson`, the built CLI
// reading every page at the read-back's page size, which is what a read-back cost before src/ledger/window-read.ts.
// Goal: at most 30 pages at 50,000.
//
// One trial, end to end with the built CLI against a sandbox in its own process (+20 ms per /api/v1 answer):
//   1. a fresh organization is seeded with N shipments, one a minute, the newest an hour old: a history that the
//      read-back window (from the lost request's time, less a 2-minute margin) does not reach;
//   2. `shipment create --csv` of 5 rows (one request) with a `slow-apply` fault on it: the run is killed (SIGKILL, a
//      crash) while the sandbox holds the request, which the sandbox then applies: one create request whose answer was
//      lost, left in flight in the run's ledger. (A `500-after` or `reset-after` fault would not do: the run itself
//      reads the list back 2 s later, finds the rows, and the rerun has nothing left to settle; that in-run read-back
//      is measured apart, in step 5.)
//   3. the request log is cleared and the same command is run again: the measured rerun, its wall time from spawn to
//      exit and the list pages in the sandbox's log. It must exit 0, send nothing, and report the 5 rows as created by
//      the earlier run, each with its own id; the organization then holds N + 5.
//   4. the same command once more, with nothing left to settle: the rerun's fixed cost, for the record.
//   5. (first round only) another 5-row file with a `500-after` fault: the pages of the run's own read-back after its
//      lost answer (it must report the 5 rows created).
// Each trial has its own config folder (SHIPCTL_CONFIG_DIR), so no lag measured earlier widens the window; the code
// cache (SHIPCTL_CACHE_DIR) is shared and warmed first, as on a user's machine. The full scan runs last on the trial's
// organization and checks it too: N + 5 (+ 5) shipments, no title twice. At 50,000 it takes about 25 s, so there it
// runs in the first round only. One more row lists 10,000 shipments in `shuffled` order: no order to learn, so the
// read-back falls back to reading every page, which should cost what the full scan costs.
// BENCH_READBACK_LOG=1 prints the page numbers each read asked for, in order. Needs `npm run build` first.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { control, startSandbox } from "./_sandbox.mjs";
import { median, printTable } from "./_stats.mjs";
import { shipmentRows, toCsv } from "../fixtures/csv/generate.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin/shipctl.js");
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const SIZES = (process.env.BENCH_READBACK_SIZES ?? "1000,10000,50000").split(",").map(Number);
const SHUFFLED_SIZE = 10_000;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const ROWS = 5;
const GOAL_PAGES = 30;
const TOKEN = "bench-token";
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-readback-"));
const cacheDir = join(work, "cache");

/** A fresh organization holding n shipments, the newest an hour old, one a minute apart. */
async function seededOrg(url, n, order) {
  const { token } = await control(url, TOKEN, "POST", "/_sandbox/organizations");
  const ctl = (method, path, body) => control(url, token, method, path, body);
  const newest = Date.now() - 3_600_000;
  const step = 60_000;
  await ctl("POST", "/_sandbox/shipments/seed", { count: n, created_from: new Date(newest - (n - 1) * step).toISOString(), created_step_ms: step, title_prefix: "Held" });
  if (order) await ctl("PUT", "/_sandbox/listing", { order });
  return { token, ctl };
}

function cli(args, { url, token, config, stdout = "pipe" }) {
  const start = performance.now();
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("SHIPCTL_") || key === "FORCE_COLOR") delete env[key];
  // The read-back alone: the look before a create reads the same list, and is measured by bench/look.mjs.
  Object.assign(env, { NO_COLOR: "1", CI: "true", SHIPCTL_CONFIG_DIR: config, SHIPCTL_CACHE_DIR: cacheDir, SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: token, SHIPCTL_LOOK_DAYS: "0" });
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", stdout, "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (d) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
  const done = new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, out, err, ms: performance.now() - start }));
  });
  return { child, done };
}

async function until(what, test, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The list pages the organization was asked for since the log was cleared; BENCH_READBACK_LOG=1 prints their numbers. */
async function listPages(ctl, what) {
  const log = (await ctl("GET", "/_sandbox/requests?method=GET&path=/api/v1/shipments")).data;
  if (process.env.BENCH_READBACK_LOG) {
    const pages = log.map((e) => new URLSearchParams(e.query).get("page"));
    console.log(`${what}: ${log.length} page(s): ${pages.length > 40 ? `${pages.slice(0, 20).join(" ")} ... ${pages.slice(-5).join(" ")}` : pages.join(" ")}`);
  }
  return log.length;
}
const creates = async (ctl) => (await ctl("GET", "/_sandbox/requests?method=POST&path=/api/v1/shipments")).data;

function csvFile(dir, name, prefix) {
  const path = join(dir, name);
  writeFileSync(path, toCsv(shipmentRows(ROWS, { seed: 7, titlePrefix: prefix })));
  return path;
}

/** Steps 1 to 5 of the header, for an organization of n shipments. */
async function trial(url, n, { order, inRun = false, fullScan = false } = {}) {
  const { token, ctl } = await seededOrg(url, n, order);
  const dir = mkdtempSync(join(work, "trial-"));
  const target = { url, token, config: join(dir, "config") };
  const csv = csvFile(dir, "lost.csv", `Lost ${n}`);
  const create = ["shipment", "create", "--csv", csv, "--json"];

  // 2. A crash while the service is still applying the one request.
  await ctl("POST", "/_sandbox/faults", { method: "POST", path: "/api/v1/shipments", kind: "slow-apply", ms: 300 });
  const crashed = cli(create, target);
  await until("the request to be held", async () => /^slow-apply: body read/.test((await creates(ctl))[0]?.note ?? ""));
  crashed.child.kill("SIGKILL");
  await crashed.done;
  await until("the request to be applied", async () => /applied after the client had gone/.test((await creates(ctl))[0]?.note ?? ""));

  // 3. The rerun that settles it.
  await ctl("DELETE", "/_sandbox/requests");
  const rerun = await cli(create, target).done;
  const pages = await listPages(ctl, `${n}${order ? ` ${order}` : ""} rerun`);
  const sent = (await creates(ctl)).length;
  if (rerun.code !== 0) throw new Error(`the rerun exited ${rerun.code}\n${rerun.err.slice(-2000)}`);
  const report = JSON.parse(rerun.out);
  const ids = new Set(report.skipped.map((s) => s.shipment_id).filter((id) => Number.isInteger(id)));
  if (sent !== 0 || report.counts.skipped !== ROWS || ids.size !== ROWS) {
    throw new Error(`the rerun sent ${sent} request(s) and reported ${JSON.stringify(report.counts)} with ${ids.size} distinct ids; expected nothing sent and ${ROWS} rows created earlier\n${rerun.err.slice(-2000)}`);
  }
  const held = (await ctl("GET", "/_sandbox/organization")).shipments;
  if (held !== n + ROWS) throw new Error(`the organization holds ${held} shipments after the rerun; expected ${n + ROWS}`);

  // 4. Nothing left to settle.
  const idle = await cli(create, target).done;
  if (idle.code !== 0) throw new Error(`the second rerun exited ${idle.code}\n${idle.err.slice(-2000)}`);

  // 5. The run's own read-back after a lost answer.
  let inRunPages;
  if (inRun) {
    await ctl("DELETE", "/_sandbox/requests");
    await ctl("POST", "/_sandbox/faults", { method: "POST", path: "/api/v1/shipments", kind: "500-after" });
    const lost = await cli(["shipment", "create", "--csv", csvFile(dir, "answer-lost.csv", `Answer lost ${n}`), "--json"], target).done;
    inRunPages = await listPages(ctl, `${n} in-run read-back`);
    const counts = lost.code === 0 ? JSON.parse(lost.out).counts : undefined;
    if (counts?.created !== ROWS) throw new Error(`the run whose answer was lost exited ${lost.code} with ${JSON.stringify(counts)}\n${lost.err.slice(-2000)}`);
  }

  let scan;
  if (fullScan) scan = await fullScanOf(ctl, target, n + (inRun ? 2 : 1) * ROWS);
  rmSync(dir, { recursive: true, force: true });
  await ctl("POST", "/_sandbox/reset"); // frees the seeded shipments
  if (process.env.BENCH_READBACK_LOG) console.log(`  rerun ${Math.round(rerun.ms)} ms, nothing to settle ${Math.round(idle.ms)} ms`);
  return { pages, ms: rerun.ms, idleMs: idle.ms, inRunPages, scan };
}

/** The baseline: every page at limit 50, through the CLI; also checks the organization holds `expected`, no title twice. */
async function fullScanOf(ctl, target, expected) {
  await ctl("DELETE", "/_sandbox/requests");
  const r = await cli(["list", "shipments", "--all", "--limit", "50", "--ndjson"], target).done;
  if (r.code !== 0) throw new Error(`the full scan exited ${r.code}: ${r.err.slice(-1000)}`);
  const titles = r.out.trim().split("\n").map((line) => JSON.parse(line).title);
  const distinct = new Set(titles).size;
  if (titles.length !== expected || distinct !== expected) throw new Error(`the full scan read ${titles.length} shipments, ${distinct} distinct titles; expected ${expected}`);
  return { pages: await listPages(ctl, "full scan"), ms: r.ms };
}

const range = (values) => `${Math.min(...values)}..${Math.max(...values)}`;

try {
  mkdirSync(cacheDir);
  const { url, child } = await startSandbox({ token: TOKEN, latency: LATENCY_MS });
  const results = [];
  try {
    await trial(url, 100); // warms the code cache and the sandbox
    for (const n of SIZES) {
      const runs = [];
      for (let i = 0; i < rounds; i++) runs.push(await trial(url, n, { inRun: i === 0, fullScan: i === 0 || n < 50_000 }));
      results.push({ n, runs });
    }
    const shuffled = await trial(url, SHUFFLED_SIZE, { order: "shuffled", fullScan: true });
    results.push({ n: SHUFFLED_SIZE, order: "shuffled", runs: [shuffled] });
  } finally {
    child.kill("SIGTERM");
  }

  const rows = [];
  for (const { n, order, runs } of results) {
    const size = `${n.toLocaleString("en-US")}${order ? ` ${order}` : ""}`;
    const scans = runs.filter((r) => r.scan);
    const pages = runs.map((r) => r.pages);
    const ms = runs.map((r) => r.ms);
    const scanPages = median(scans.map((r) => r.scan.pages));
    const scanMs = median(scans.map((r) => r.scan.ms));
    const goal = n === 50_000 && !order ? `<= ${GOAL_PAGES}: ${Math.max(...pages) <= GOAL_PAGES ? "met" : "NOT met"}` : order ? "= full scan" : "";
    rows.push([`${size}: rerun settling 1 lost request, pages (${range(pages)})`, median(pages), scanPages, "pages", goal]);
    rows.push([`${size}: rerun settling 1 lost request, wall (${range(ms.map(Math.round))} ms)`, median(ms), scanMs, "ms"]);
    if (!order) {
      rows.push([`${size}: rerun with nothing to settle, wall`, median(runs.map((r) => r.idleMs)), median(ms), "ms", "vs the rerun above"]);
      rows.push([`${size}: in-run read-back after a 500-after, pages (1 run)`, runs[0].inRunPages, scanPages, "pages"]);
    }
  }
  printTable(
    `Settling one lost create request (${ROWS} rows) in a rerun after a crash, sandbox +${LATENCY_MS} ms per answer, ` +
      `${rounds} round${rounds === 1 ? "" : "s"} (median, range); baseline: \`list shipments --all --limit 50 --ndjson\` on the same organization ` +
      `(every round at 1,000 and 10,000, the first at 50,000)`,
    rows,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
