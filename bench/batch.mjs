// `shipctl shipment create --csv` (issue 4), each figure beside a baseline measured in the same run:
//   1. 10,000 rows end to end against a sandbox adding 20 ms per request, and against one answering at once, beside a
//      raw undici Pool loop sending the same precomputed request bodies (1,000 requests of 10) with the same
//      concurrency to the same sandbox: the limit for this machine. Goals: at least 0.9x and 0.5x of the loop.
//   2. Parse + validate alone (the first pass of a run), rows per second beside csv-parse alone on the same file.
//      Goal: at least 0.7x.
//   3. Peak RSS of `--dry-run` on 100,000 rows beside a plain streaming csv-parse of the same file, and flat as the file
//      grows (10,000 vs 100,000 rows). Goal: at most 1.3x.
//   4. For the record: the same 1,000 requests sent by a sequential curl loop, what a user would write without shipctl;
//      and the floor of the user's stack (bench/_stack-floor.mjs): a fresh node process that only reads the file with
//      csv-parse and sends the same bodies with an undici Pool, nothing else. No tool built on them, shipctl included,
//      can beat that ratio on this machine: it says how much of a goal is left to shipctl at all.
// shipctl's times are end to end as a user sees them: process start, reading and checking every row, verifying the
// distinct addresses, the journal (flushed before every request), sending, reporting. Rounds alternate baseline and
// shipctl so machine noise falls on both alike. The sandbox runs in its own process. Needs `npm run build` first.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, createReadStream } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Pool, request } from "undici";
import { parse } from "csv-parse";
import { startSandbox } from "./_sandbox.mjs";
import { build } from "esbuild";
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
// shipctl sets (performance.mark "shipctl:batch:*", ms since the process started) and when it exited.
const preload = join(work, "report.mjs");
writeFileSync(
  preload,
  `import { writeSync } from "node:fs";\nprocess.on("exit", () => { try { writeSync(3, JSON.stringify({ maxRSS: process.resourceUsage().maxRSS, ` +
    `marks: Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name.replace("shipctl:batch:", ""), m.startTime])), exit: performance.now() })); } catch {} });\n`,
);

/**
 * Where one run's time went, in ms: between consecutive marks shipctl set (from the process start), up to its exit,
 * and what the parent saw beyond that (spawning node, tearing it down). Each span is named by the mark ending it.
 */
const MARKS = [
  ["started", "start-up: node, modules, flags"],
  ["connected", "connection, tables, file opened"],
  ["opened", "journal opened (and earlier journals read)"],
  ["validated", "first pass: read and check every row"],
  ["verified", "distinct addresses verified"],
  ["first-request", "send pass opened, first row ready"],
  ["sent", "rows sent, journal around each request"],
  ["finished", "results, journal folded"],
  ["exit", "exit"],
];

function run(args, { env = {}, stdout = "pipe" } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const argv = ["--import", pathToFileURL(preload).href, ...args];
    const child = spawn(process.execPath, argv, {
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
      resolve({ code, out, err, ms, rssMb: (report.maxRSS * 1024) / 1e6, phases: phasesOf(MARKS, report, ms) });
    });
  });
}

/** The request bodies shipctl sends for `csv`, taken from its own dry run: the raw loop sends exactly these. */
async function requestBodies(csv, url) {
  const r = await run([bin, "shipment", "create", "--csv", csv, "--dry-run", "--json", "--no-verify"], { env: { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN } });
  if (r.code !== 0) throw new Error(`dry run failed (${r.code}): ${r.err}`);
  const shipments = JSON.parse(r.out).would_send.map((w) => w.shipment);
  const bodies = [];
  for (let i = 0; i < shipments.length; i += 10) bodies.push(JSON.stringify({ shipments: shipments.slice(i, i + 10) }));
  return bodies;
}

async function rawLoop(url, bodies) {
  const token = await newOrg(url);
  const pool = new Pool(url, { connections: CONCURRENCY, keepAliveTimeout: 10_000 });
  const headers = { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" };
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const res = await pool.request({ method: "POST", path: "/api/v1/shipments", headers, body });
        await res.body.dump();
        if (res.statusCode !== 201) throw new Error(`raw loop: ${res.statusCode}`);
      }
    }),
  );
  const ms = performance.now() - start;
  await pool.close();
  return ms;
}

async function shipctlCreate(url, csv) {
  const token = await newOrg(url);
  const dir = mkdtempSync(join(work, "run-"));
  const copy = join(dir, "shipments.csv");
  copyFileSync(csv, copy);
  const r = await run([bin, "shipment", "create", "--csv", copy, "--concurrency", String(CONCURRENCY), "--json"], { env: { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: token } });
  rmSync(dir, { recursive: true, force: true });
  if (r.code !== 0) throw new Error(`shipctl exited ${r.code}\n${r.err.slice(-2000)}`);
  const { created } = JSON.parse(r.out).counts;
  if (created !== ROWS) throw new Error(`shipctl created ${created} of ${ROWS}`);
  return r;
}

/** The stack's floor (see the top of this file), end to end as seen from here: spawn to exit. */
async function stackFloor(url, csv, bodiesFile) {
  const token = await newOrg(url);
  const start = performance.now();
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bench/_stack-floor.mjs"), csv, bodiesFile, url, token, String(CONCURRENCY)], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`stack floor exited ${code}: ${err}`))));
  });
  return ROWS / ((performance.now() - start) / 1000);
}

async function endToEnd(latency, csv) {
  const { url, child } = await startSandbox({ token: TOKEN, latency });
  try {
    const bodies = await requestBodies(csv, url);
    const bodiesFile = join(work, `bodies-${latency}.json`);
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    await rawLoop(url, bodies); // warm-up
    await shipctlCreate(url, csv);
    await stackFloor(url, csv, bodiesFile);
    const base = [];
    const cli = [];
    const floor = [];
    const phases = [];
    for (let i = 0; i < rounds; i++) {
      base.push(ROWS / ((await rawLoop(url, bodies)) / 1000));
      const r = await shipctlCreate(url, csv);
      cli.push(ROWS / (r.ms / 1000));
      phases.push(r.phases);
      floor.push(await stackFloor(url, csv, bodiesFile));
    }
    return { base: median(base), cli: median(cli), floor: median(floor), phases, bodies, url, child };
  } catch (e) {
    child.kill();
    throw e;
  }
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
  return { base: median(base), ours: median(ours) };
}

async function peakRss(url, csv10k, csv100k) {
  const plain = join(work, "csv-parse-only.mjs");
  writeFileSync(
    plain,
    `import { createReadStream } from "node:fs";\nimport { parse } from ${JSON.stringify(pathToFileURL(join(root, "node_modules/csv-parse/lib/index.js")).href)};\nlet n = 0;\nfor await (const _ of createReadStream(process.argv[2]).pipe(parse())) n++;\nif (n < 2) process.exitCode = 1;\n`,
  );
  const devnull = () => openSync("/dev/null", "w");
  const dryRun = async (csv) => {
    const fd = devnull();
    const r = await run([bin, "shipment", "create", "--csv", csv, "--dry-run", "--json"], { env: { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN }, stdout: fd });
    closeSync(fd);
    if (r.code !== 0) throw new Error(`dry run exited ${r.code}: ${r.err.slice(-1000)}`);
    return r.rssMb;
  };
  const csvParse = async (csv) => {
    const r = await run([plain, csv]);
    if (r.code !== 0) throw new Error(`csv-parse alone exited ${r.code}: ${r.err}`);
    return r.rssMb;
  };
  // The HTTP layer's fixed cost, for reference: a dry run asks the sandbox for its tables and verifies addresses, and
  // undici's first request compiles its HTTP parser (WebAssembly), whatever the file's size.
  const oneRequest = async () => {
    const r = await run([bin, "address", "get", "1", "--json"], { env: { SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN } });
    return r.rssMb;
  };
  const out = { cli100: [], base100: [], cli10: [], base10: [], request: [] };
  for (let i = 0; i < rounds; i++) {
    out.base100.push(await csvParse(csv100k));
    out.cli100.push(await dryRun(csv100k));
    out.base10.push(await csvParse(csv10k));
    out.cli10.push(await dryRun(csv10k));
    out.request.push(await oneRequest());
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, median(v)]));
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

try {
  mkdirSync(join(work, "curl"));
  const csv = writeRows(ROWS, "rows-10k.csv");
  const slow = await endToEnd(LATENCY_MS, csv);
  const fast = await endToEnd(0, csv);
  const pass = await parseValidate(writeRows(PARSE_ROWS, "rows-50k.csv"));
  const rss = await peakRss(fast.url, writeRows(10_000, "rss-10k.csv"), writeRows(100_000, "rss-100k.csv"));
  const curl = await curlLoop(slow.url, slow.bodies);
  slow.child.kill();
  fast.child.kill();

  printTable(`shipment create --csv: ${ROWS.toLocaleString("en-US")} rows, concurrency ${CONCURRENCY}, ${rounds} rounds (median)`, [
    [`end to end, sandbox +${LATENCY_MS} ms/request (vs raw undici loop)`, slow.cli, slow.base, "rows/s", ">= 0.9x"],
    ["end to end, sandbox answering at once (vs raw undici loop)", fast.cli, fast.base, "rows/s", ">= 0.5x"],
    [`parse + validate, ${PARSE_ROWS.toLocaleString("en-US")} rows (vs csv-parse alone)`, pass.ours, pass.base, "rows/s", ">= 0.7x"],
    ["peak RSS, --dry-run on 100,000 rows (vs streaming csv-parse)", rss.cli100, rss.base100, "MB", "<= 1.3x"],
    ["peak RSS, --dry-run: 100,000 rows (vs 10,000 rows)", rss.cli100, rss.cli10, "MB", "flat (~1.0x)"],
    ["peak RSS, one request: `address get` (vs streaming csv-parse)", rss.request, rss.base100, "MB", "the HTTP layer's floor"],
    ...(curl === undefined ? [] : [[`sequential curl loop, same 1,000 requests, +${LATENCY_MS} ms (vs shipctl)`, curl, slow.cli, "rows/s", "for the record"]]),
    [`stack floor: fresh node, csv-parse, undici only, +${LATENCY_MS} ms (vs raw loop)`, slow.floor, slow.base, "rows/s", "best any such tool gets"],
    ["stack floor: fresh node, csv-parse, undici only, at once (vs raw loop)", fast.floor, fast.base, "rows/s", "best any such tool gets"],
  ]);
  printPhases(`Where shipctl's time goes, sandbox +${LATENCY_MS} ms/request (median of ${rounds}, range)`, slow.phases);
  printPhases(`Where shipctl's time goes, sandbox answering at once (median of ${rounds}, range)`, fast.phases);
} finally {
  rmSync(work, { recursive: true, force: true });
}
