// `shipctl shipment create --csv` on the Node running this bench (Node 20 on the project's machines) and on Node 24
// (bench/_nodes.mjs), each figure beside a baseline measured in the same run on the same Node:
//   1. 10,000 rows end to end against a sandbox adding 20 ms per request, and against one answering at once, beside
//      the floor of the user's stack (bench/_stack-floor.mjs): a fresh node process that only reads the file with
//      csv-parse and sends the same request bodies (1,000 requests of 10) with an undici Pool, the same number at a
//      time, nothing else. No tool built on those two can do better on this machine. Goals: at least 0.95x the floor
//      with the sandbox adding 20 ms, at least 0.8x with the sandbox answering at once. With 20 ms, also the send
//      phase alone (first request to last answer, beside the floor's own), where the ledger's cost shows, with goal
//      0.95x; and the time before the first request, which sets the end-to-end ceiling: nothing is sent before every
//      row is read and checked, so a run that sent at the floor's pace would still reach only that ceiling.
//      And what the ledger's store costs the send phase (issue 21): shipctl beside the same sources built with a store
//      that does nothing (bench/_null-store.ts: claims granted, records dropped, nothing found), every other step
//      kept. Goal: at least 0.95x. The send phase beside the floor's measures the whole write path, store included;
//      this row measures the store's part of it.
//   2. Peak RSS of `--dry-run` on 100,000 rows beside a plain streaming csv-parse of the same file, and flat as the file
//      grows (10,000 vs 100,000 rows). Goal: at most 1.3x. Peak RSS also counts the garbage V8 lets pile up before it
//      collects, which grows with the work done, so the heap the run still holds once every row is checked (after a
//      full collection) is shown for 10,000 and 100,000 rows too: what "flat in the number of rows" means. (Until
//      it ends, the pass itself remembers each row's reference, about 70 bytes a row, to find one given twice.)
//   3. For the record, on the Node running the bench: parse + validate alone (the first pass of a run, in process),
//      rows per second beside csv-parse alone on the same file (goal of issue 4: at least 0.7x); and the same 1,000
//      requests sent by a sequential curl loop, what a user would write without shipctl.
// shipctl's times are end to end as a user sees them: process start, reading and checking every row, verifying the
// distinct addresses, the ledger (flushed before every request), sending, reporting. Rounds alternate the floor and
// shipctl, and the Nodes, so machine noise falls on all alike. The sandbox runs in its own process. BENCH_ROUNDS
// (default 3) sets the rounds. Needs `npm run build` first.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, createReadStream } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { request } from "undici";
import { parse } from "csv-parse";
import { startSandbox } from "./_sandbox.mjs";
import { build } from "esbuild";
import { buildOptions } from "../scripts/build-options.mjs";
import { benchNodes, versionOf } from "./_nodes.mjs";
import { median, printTable, phasesOf, printPhases } from "./_stats.mjs";
import { shipmentRows, toCsv } from "../fixtures/csv/generate.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin/shipctl.js");
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 10_000);
const PARSE_ROWS = 50_000;
const CONCURRENCY = 4;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const TOKEN = "bench-token";
const GOALS = { slow: 0.95, send: 0.95, store: 0.95, fast: 0.8, rss: 1.3 };
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-batch-"));

/**
 * A gallery's file: one gallery ships every row (its address is verified once), to a handful of collectors and
 * museums in several countries, with phones written nationally and services by name, as staff would type them.
 */
function writeRows(n, name) {
  const path = join(work, name);
  writeFileSync(path, toCsv(shipmentRows(n, { seed: n, titlePrefix: `B${n}` })));
  return path;
}

/** A fresh organization per run, so no run sees another's shipments. */
async function newOrg(url) {
  const res = await request(`${url}/_sandbox/organizations`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, accept: "application/json" } });
  const body = await res.body.json();
  if (res.statusCode >= 300) throw new Error(`new organization: ${res.statusCode}`);
  return body.token;
}

// Reports the CLI's peak RSS (getrusage maxrss) when it exits, on a file descriptor of its own, with the phase marks
// shipctl sets (performance.mark "shipctl:batch:*", ms since the process started) and when it exited. Run with
// --expose-gc, it also reports the heap still in use after a full collection at the mark "verified" (every row read
// and checked): what the run holds, apart from the garbage V8 has not collected yet, which peak RSS counts too.
const preload = join(work, "report.mjs");
writeFileSync(
  preload,
  `import { writeSync } from "node:fs";\nlet liveHeap;\n` +
    `if (globalThis.gc) { const mark = performance.mark.bind(performance); performance.mark = (name, ...rest) => { const m = mark(name, ...rest); ` +
    `if (name === "shipctl:batch:verified") { globalThis.gc(); liveHeap = process.memoryUsage().heapUsed; } return m; }; }\n` +
    `process.on("exit", () => { try { writeSync(3, JSON.stringify({ maxRSS: process.resourceUsage().maxRSS, liveHeap, ` +
    `marks: Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name.replace("shipctl:batch:", ""), m.startTime])), exit: performance.now() })); } catch {} });\n`,
);

/**
 * Where one run's time went, in ms: between consecutive marks shipctl set (from the process start), up to its exit,
 * and what the parent saw beyond that (spawning node, tearing it down). Each span is named by the mark ending it.
 */
const MARKS = [
  ["started", "start-up: node, modules, flags"],
  ["connected", "connection, tables, file opened"],
  ["opened", "ledger opened (and earlier ledgers read)"],
  ["validated", "first pass: read and check every row"],
  ["verified", "distinct addresses verified"],
  ["first-request", "send pass opened, first row ready"],
  ["sent", "rows sent, ledger around each request"],
  ["finished", "results, ledger folded"],
  ["exit", "exit"],
];

/** Runs `node args` (with the preload above) and resolves with its exit code, output, wall time, peak RSS and phases. */
function run(node, args, { env = {}, stdout = "pipe" } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const argv = ["--import", pathToFileURL(preload).href, ...args];
    const child = spawn(node, argv, {
      stdio: ["ignore", stdout, "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", SHIPCTL_CONFIG_DIR: join(work, "config"), ...env },
    });
    let out = "";
    let err = "";
    let rss = "";
    child.stdout?.setEncoding("utf8").on("data", (d) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
    child.stdio[3].setEncoding("utf8").on("data", (d) => (rss += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      const report = rss === "" ? { maxRSS: NaN, marks: {}, exit: NaN } : JSON.parse(rss);
      resolve({ code, out, err, ms, rssMb: (report.maxRSS * 1024) / 1e6, liveMb: report.liveHeap / 1e6, marks: report.marks, phases: phasesOf(MARKS, report, ms) });
    });
  });
}

/** The request bodies shipctl sends for `csv`, taken from its own dry run: the stack floor sends exactly these. */
async function requestBodies(csv, url) {
  const r = await run(process.execPath, [bin, "shipment", "create", "--csv", csv, "--dry-run", "--json", "--no-verify"], { env: { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN } });
  if (r.code !== 0) throw new Error(`dry run failed (${r.code}): ${r.err}`);
  const shipments = JSON.parse(r.out).would_send.map((w) => w.shipment);
  const bodies = [];
  for (let i = 0; i < shipments.length; i += 10) bodies.push(JSON.stringify({ shipments: shipments.slice(i, i + 10) }));
  return bodies;
}

/**
 * shipctl built with the ledger's store doing nothing (bench/_null-store.ts in place of src/ledger/local-store.ts),
 * beside dist/ in the bench's folder; returns its bin.
 */
async function buildNullStore() {
  const dir = join(work, "null-store");
  const nullStore = join(root, "bench/_null-store.ts");
  const options = buildOptions(root, join(dir, "dist"));
  const swap = {
    name: "null-store",
    setup(b) {
      b.onResolve({ filter: /\/local-store\.js$/ }, (args) => (args.importer === nullStore ? undefined : { path: nullStore }));
    },
  };
  await build({ ...options, sourcemap: false, plugins: [swap] });
  mkdirSync(join(dir, "bin"));
  copyFileSync(bin, join(dir, "bin/shipctl.js"));
  return join(dir, "bin/shipctl.js");
}

/** shipctl end to end, spawn to exit: rows per second and where the time went. `cli`: another build's bin. */
async function shipctlCreate(node, url, csv, cli = bin) {
  const token = await newOrg(url);
  const dir = mkdtempSync(join(work, "run-"));
  const copy = join(dir, "shipments.csv");
  copyFileSync(csv, copy);
  // Each run its own ledger: every run sends the same rows, to a new organization on the same sandbox URL.
  const env = { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: token, SHIPCTL_STATE_DIR: join(dir, "state") };
  const r = await run(node, [cli, "shipment", "create", "--csv", copy, "--concurrency", String(CONCURRENCY), "--json"], { env });
  // The run's folder stays until the bench ends: see "Removing files slows the next run" in docs/development.md.
  if (r.code !== 0) throw new Error(`shipctl exited ${r.code}\n${r.err.slice(-2000)}`);
  const { created } = JSON.parse(r.out).counts;
  if (created !== ROWS) throw new Error(`shipctl created ${created} of ${ROWS}`);
  const marks = r.marks;
  return { rate: ROWS / (r.ms / 1000), sendRate: ROWS / ((marks.sent - marks["first-request"]) / 1000), beforeSendMs: r.ms - (marks.sent - marks["first-request"]), phases: r.phases };
}

/**
 * The stack's floor (see the top of this file), end to end as seen from here (spawn to exit) in rows per second, its send
 * phase's rows per second, and its time before the first request.
 */
async function stackFloor(node, url, csv, bodiesFile) {
  const token = await newOrg(url);
  const start = performance.now();
  const { first, end } = await new Promise((resolve, reject) => {
    const child = spawn(node, [join(root, "bench/_stack-floor.mjs"), csv, bodiesFile, url, token, String(CONCURRENCY)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`stack floor exited ${code}: ${err}`))));
  });
  const ms = performance.now() - start;
  return { rate: ROWS / (ms / 1000), sendRate: ROWS / ((end - first) / 1000), beforeSendMs: ms - (end - first) };
}

/** Peak RSS of a dry run of `csv` (its document to /dev/null), in MB; `live`: the heap it holds once every row is checked. */
async function dryRunMemory(node, url, csv, { live = false } = {}) {
  const fd = openSync("/dev/null", "w");
  const r = await run(node, [...(live ? ["--expose-gc"] : []), bin, "shipment", "create", "--csv", csv, "--dry-run", "--json"], { env: { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN }, stdout: fd });
  closeSync(fd);
  if (r.code !== 0) throw new Error(`dry run exited ${r.code}: ${r.err.slice(-1000)}`);
  return live ? r.liveMb : r.rssMb;
}

const plainParse = join(work, "csv-parse-only.mjs");
writeFileSync(
  plainParse,
  `import { createReadStream } from "node:fs";\nimport { parse } from ${JSON.stringify(pathToFileURL(join(root, "node_modules/csv-parse/lib/index.js")).href)};\nlet n = 0;\nfor await (const _ of createReadStream(process.argv[2]).pipe(parse())) n++;\nif (n < 2) process.exitCode = 1;\n`,
);

/** Peak RSS of a plain streaming csv-parse of `csv`, in MB. */
async function csvParseRss(node, csv) {
  const r = await run(node, [plainParse, csv]);
  if (r.code !== 0) throw new Error(`csv-parse alone exited ${r.code}: ${r.err}`);
  return r.rssMb;
}

/**
 * The HTTP layer's fixed cost, for reference: a dry run asks the sandbox for its tables and verifies addresses, and
 * undici's first request compiles its HTTP parser (WebAssembly), whatever the file's size. Node 20's V8 also tiers
 * that parser up to optimized code, which costs more memory than on Node 24.
 */
async function oneRequestRss(node, url) {
  const r = await run(node, [bin, "address", "get", "1", "--json"], { env: { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN } });
  return r.rssMb;
}

/** The first pass of a run (read, normalise, validate every row), bundled from the sources for an in-process figure. */
async function parseValidate(csv) {
  const entry = join(work, "pass.ts");
  writeFileSync(
    entry,
    `import { validatePass } from ${JSON.stringify(join(root, "src/batch/validate-pass.ts"))};
import { shipmentScanSpec } from ${JSON.stringify(join(root, "src/shipments/shipment-spec.ts"))};
import { openSource } from ${JSON.stringify(join(root, "src/csv/csv-source.ts"))};
import { SANDBOX_TABLES } from ${JSON.stringify(join(root, "src/contract/index.ts"))};
export async function firstPass(path: string): Promise<number> {
  const source = await openSource(path, "/", process.stdin);
  const spec = shipmentScanSpec(SANDBOX_TABLES, { update: false, keys: false });
  return (await validatePass(source, spec, new AbortController().signal, () => undefined)).valid;
}
`,
  );
  const outfile = join(work, "pass.mjs");
  await build({ entryPoints: [entry], outfile, bundle: true, format: "esm", platform: "node", logLevel: "warning", nodePaths: [join(root, "node_modules")], define: { __SHIPCTL_VERSION__: '"bench"' }, banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" } });
  const { firstPass } = await import(pathToFileURL(outfile).href);
  const csvParseAlone = () =>
    new Promise((resolve, reject) => {
      let n = 0;
      createReadStream(csv).pipe(parse()).on("data", () => n++).on("end", () => resolve(n - 1)).on("error", reject);
    });
  const timed = async (fn) => {
    const start = performance.now();
    const n = await fn();
    if (n !== PARSE_ROWS) throw new Error(`read ${n} rows of ${PARSE_ROWS}`);
    return PARSE_ROWS / ((performance.now() - start) / 1000);
  };
  await timed(csvParseAlone);
  await timed(() => firstPass(csv));
  const base = [];
  const ours = [];
  for (let i = 0; i < rounds + 2; i++) {
    base.push(await timed(csvParseAlone));
    ours.push(await timed(() => firstPass(csv)));
  }
  return { base, ours };
}

function curlLoop(url, bodies) {
  if (spawnSync("curl", ["--version"]).status !== 0) return undefined;
  const files = bodies.map((b, i) => {
    const f = join(work, "curl", `${i}.json`);
    writeFileSync(f, b);
    return f;
  });
  return newOrg(url).then((token) => {
    const start = performance.now();
    for (const f of files) {
      const r = spawnSync("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", `${url}/api/v1/shipments`, "-H", `Authorization: Bearer ${token}`, "-H", "Content-Type: application/json", "-H", "Accept: application/json", "--data-binary", `@${f}`], { encoding: "utf8" });
      if (r.stdout !== "201") throw new Error(`curl answered ${r.stdout} ${r.stderr}`);
    }
    return (bodies.length * 10) / ((performance.now() - start) / 1000);
  });
}

const range = (values, digits = 0) => `${Math.min(...values).toFixed(digits)}..${Math.max(...values).toFixed(digits)}`;

/** A goal's cell, and the list of goals missed: `atLeast` for a ratio that must reach it, else at most. */
const missed = [];
function goal(ratio, bound, atLeast, what) {
  const met = atLeast ? ratio >= bound : ratio <= bound;
  if (!met) missed.push(what);
  return `${atLeast ? ">=" : "<="} ${bound}x ${met ? "met" : "MISSED"}`;
}

const sandboxes = [];
try {
  mkdirSync(join(work, "curl"));
  const csv = writeRows(ROWS, "rows-10k.csv");
  const csv10k = writeRows(10_000, "rss-10k.csv");
  const csv100k = writeRows(100_000, "rss-100k.csv");
  const slow = await startSandbox({ token: TOKEN, latency: LATENCY_MS });
  sandboxes.push(slow.child);
  const fast = await startSandbox({ token: TOKEN, latency: 0 });
  sandboxes.push(fast.child);
  const bodies = await requestBodies(csv, fast.url);
  const bodiesFile = join(work, "bodies.json");
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const nullStoreBin = await buildNullStore();

  const nodes = benchNodes().map((path) => ({
    path,
    version: versionOf(path),
    slow: { cli: [], floor: [], phases: [], send: [], floorSend: [], before: [], floorBefore: [], nullStoreSend: [] },
    fast: { cli: [], floor: [], phases: [], send: [], floorSend: [], before: [], floorBefore: [] },
    rss: { cli100: [], base100: [], cli10: [], live100: [], live10: [], request: [] },
  }));
  // Warm-up: the file cache, and each Node's compile cache (bin/shipctl.js turns it on where Node has it).
  for (const n of nodes) {
    await shipctlCreate(n.path, fast.url, csv);
    await stackFloor(n.path, fast.url, csv, bodiesFile);
  }
  for (let i = 0; i < rounds; i++) {
    for (const n of nodes) {
      for (const [key, sandbox] of [["slow", slow], ["fast", fast]]) {
        const f = await stackFloor(n.path, sandbox.url, csv, bodiesFile);
        const r = await shipctlCreate(n.path, sandbox.url, csv);
        const m = n[key];
        m.floor.push(f.rate);
        m.floorSend.push(f.sendRate);
        m.floorBefore.push(f.beforeSendMs);
        m.cli.push(r.rate);
        m.send.push(r.sendRate);
        m.before.push(r.beforeSendMs);
        m.phases.push(r.phases);
      }
      n.slow.nullStoreSend.push((await shipctlCreate(n.path, slow.url, csv, nullStoreBin)).sendRate);
      n.rss.base100.push(await csvParseRss(n.path, csv100k));
      n.rss.cli100.push(await dryRunMemory(n.path, fast.url, csv100k));
      n.rss.cli10.push(await dryRunMemory(n.path, fast.url, csv10k));
      n.rss.live100.push(await dryRunMemory(n.path, fast.url, csv100k, { live: true }));
      n.rss.live10.push(await dryRunMemory(n.path, fast.url, csv10k, { live: true }));
      n.rss.request.push(await oneRequestRss(n.path, fast.url));
    }
  }
  const pass = await parseValidate(writeRows(PARSE_ROWS, "rows-50k.csv"));
  const curl = await curlLoop(slow.url, bodies);

  for (const n of nodes) {
    const slowRatio = median(n.slow.cli) / median(n.slow.floor);
    const sendRatio = median(n.slow.send) / median(n.slow.floorSend);
    const storeRatio = median(n.slow.send) / median(n.slow.nullStoreSend);
    // The best end-to-end ratio any run could reach that sends at the floor's pace but first spends this run's time
    // before its first request (start-up, the first pass over every row, the address checks: nothing is sent before
    // every row is read and checked).
    const floorMs = (ROWS / median(n.slow.floor)) * 1000;
    const ceiling = floorMs / (floorMs - median(n.slow.floorBefore) + median(n.slow.before));
    const fastRatio = median(n.fast.cli) / median(n.fast.floor);
    const rssRatio = median(n.rss.cli100) / median(n.rss.base100);
    console.log("");
    printTable(`shipment create --csv on node ${n.version}: ${ROWS.toLocaleString("en-US")} rows, concurrency ${CONCURRENCY}, ${rounds} rounds (median; range)`, [
      [`end to end, sandbox +${LATENCY_MS} ms/request (${range(n.slow.cli)} vs ${range(n.slow.floor)}) vs stack floor`, median(n.slow.cli), median(n.slow.floor), "rows/s", goal(slowRatio, GOALS.slow, true, `+${LATENCY_MS} ms on node ${n.version}`)],
      [`send phase, +${LATENCY_MS} ms: first request to last answer (${range(n.slow.send)} vs ${range(n.slow.floorSend)}) vs the floor's`, median(n.slow.send), median(n.slow.floorSend), "rows/s", goal(sendRatio, GOALS.send, true, `send phase at +${LATENCY_MS} ms on node ${n.version}`)],
      [`send phase, +${LATENCY_MS} ms: the ledger's store (${range(n.slow.send)} vs ${range(n.slow.nullStoreSend)}) vs a build whose store does nothing`, median(n.slow.send), median(n.slow.nullStoreSend), "rows/s", goal(storeRatio, GOALS.store, true, `the store's cost at +${LATENCY_MS} ms on node ${n.version}`)],
      [`before the first request, +${LATENCY_MS} ms (${range(n.slow.before)} vs ${range(n.slow.floorBefore)}): end-to-end ceiling ${ceiling.toFixed(2)}x`, median(n.slow.before), median(n.slow.floorBefore), "ms", "for the record"],
      [`end to end, sandbox answering at once (${range(n.fast.cli)} vs ${range(n.fast.floor)}) vs stack floor`, median(n.fast.cli), median(n.fast.floor), "rows/s", goal(fastRatio, GOALS.fast, true, `at once on node ${n.version}`)],
      [`peak RSS, --dry-run on 100,000 rows (${range(n.rss.cli100)}) vs streaming csv-parse`, median(n.rss.cli100), median(n.rss.base100), "MB", goal(rssRatio, GOALS.rss, false, `dry-run RSS on node ${n.version}`)],
      ["peak RSS, --dry-run: 100,000 rows vs 10,000 rows", median(n.rss.cli100), median(n.rss.cli10), "MB", "flat (~1.0x)"],
      ["heap in use once every row is checked, --dry-run: 100,000 rows vs 10,000", median(n.rss.live100), median(n.rss.live10), "MB", "flat (~1.0x)"],
      ["peak RSS, one request: `address get` vs streaming csv-parse", median(n.rss.request), median(n.rss.base100), "MB", "the HTTP layer's floor"],
    ]);
    printPhases(`Where shipctl's time goes on node ${n.version}, sandbox +${LATENCY_MS} ms/request (median of ${rounds}, range)`, n.slow.phases);
    printPhases(`Where shipctl's time goes on node ${n.version}, sandbox answering at once (median of ${rounds}, range)`, n.fast.phases);
  }
  console.log("");
  printTable(`For the record, on node ${process.version}`, [
    [`parse + validate in process, ${PARSE_ROWS.toLocaleString("en-US")} rows (${range(pass.ours)}) vs csv-parse alone`, median(pass.ours), median(pass.base), "rows/s", goal(median(pass.ours) / median(pass.base), 0.7, true, `parse + validate on node ${process.version}`)],
    ...(curl === undefined ? [] : [[`sequential curl loop, same 1,000 requests, +${LATENCY_MS} ms, vs shipctl on node ${process.version}`, curl, median(nodes[0].slow.cli), "rows/s"]]),
  ]);
  console.log(missed.length ? `\nGoals missed: ${missed.join("; ")}` : "\nEvery batch goal met on every Node measured.");
} finally {
  for (const child of sandboxes) child.kill();
  rmSync(work, { recursive: true, force: true });
}
