// Condition-report uploads: 20 reports of 12 one-MiB photos sent by `shipctl report upload --batch` (concurrency 4),
// beside a raw undici loop posting the same multipart body prebuilt in memory, with the same concurrency, to the same
// sandbox (a separate process, so neither side slows the other by sharing its event loop). Rounds alternate
// baseline and shipctl so machine noise falls on both alike. Also the peak RSS of the shipctl process for 20 and for
// 10 reports: streamed from disk, it must stay flat as the batch grows.
// Goals (issue 5): at least 0.6x the raw loop's MB/s; peak RSS at most 150 MB and not growing with the report count.
// shipctl's time is end to end (process start, checks, a shipment read per report, uploads), as a user sees it.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Agent, request } from "undici";
import { startSandbox } from "./_sandbox.mjs";
import { median, printTable, phasesOf, printPhases } from "./_stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin/shipctl.js");
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const REPORTS = 20;
const CONCURRENCY = 4;
const PHOTO_BYTES = 1_048_576;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const TOKEN = "bench-token";
const SIDES = ["front", "back", "top", "bottom", "left", "right"];
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-report-"));

/**
 * A valid JPEG of exactly `size` bytes: a small image padded with comment segments of random bytes placed just before
 * the scan (after the frame header), where a camera photo carries its bulk, so reading the header stays as cheap as
 * for a real photo.
 */
function jpegOfSize(size) {
  const small = readFileSync(join(root, "fixtures/photos/nested/box/front.jpg"));
  const sos = small.indexOf(Buffer.from([0xff, 0xda]));
  if (sos < 0) throw new Error("no start-of-scan marker in the fixture");
  const segments = [];
  let left = size - small.length;
  while (left > 0) {
    let n = Math.min(left, 65_537);
    if (left - n > 0 && left - n < 4) n -= 4; // every segment needs at least its 4-byte header
    const seg = randomBytes(n);
    seg[0] = 0xff;
    seg[1] = 0xfe;
    seg.writeUInt16BE(n - 2, 2);
    segments.push(seg);
    left -= n;
  }
  const out = Buffer.concat([small.subarray(0, sos), ...segments, small.subarray(sos)]);
  if (out.length !== size) throw new Error(`built ${out.length} bytes, wanted ${size}`);
  return out;
}

// One set of 12 photos on disk; every report folder hard-links them (real files, not symlinks, no extra disk).
const photos = join(work, "photos");
mkdirSync(photos);
for (const group of ["box", "art"]) for (const side of SIDES) writeFileSync(join(photos, `${group}-${side}.jpg`), jpegOfSize(PHOTO_BYTES));
function batchRoot(ids) {
  const dir = mkdtempSync(join(work, "batch-"));
  for (const id of ids) {
    mkdirSync(join(dir, String(id)));
    for (const group of ["box", "art"]) for (const side of SIDES) linkSync(join(photos, `${group}-${side}.jpg`), join(dir, String(id), `${group}-${side}.jpg`));
  }
  return dir;
}

/** The body shipctl sends, built in memory once (it does not depend on the shipment). */
function prebuiltBody() {
  const boundary = `----bench${randomBytes(8).toString("hex")}`;
  const chunks = [];
  for (const group of ["box", "art"]) {
    for (const side of SIDES) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${group}[]"; filename="${group}-${side}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`));
      chunks.push(readFileSync(join(photos, `${group}-${side}.jpg`)), Buffer.from("\r\n"));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const { url, child: sandbox } = await startSandbox({ token: TOKEN, latency: LATENCY_MS });
const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 10_000 });
const api = async (method, path, body) => {
  const res = await request(`${url}${path}`, {
    method,
    dispatcher: agent,
    headers: { authorization: `Bearer ${TOKEN}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
};

const ADDRESS = { name: "Gallery North", email: "ship@gallery.example", phone: "+12069536978", line_1: "1 Main Street", city: "Seattle", region: "WA", post_code: "98101", country: 1 };
async function createShipments(count) {
  const ids = [];
  for (let left = count; left > 0; left -= 10) {
    const shipments = Array.from({ length: Math.min(10, left) }, (_, i) => ({
      title: `Bench ${ids.length + i}`, value: 500, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: ADDRESS, destination_address: ADDRESS,
    }));
    ids.push(...(await api("POST", "/api/v1/shipments", { shipments })).shipments.map((s) => s.id));
  }
  return ids;
}
/** Uploading a report moves a shipment to Filed; move it back so the next round can upload again. */
const redeliver = (ids) => Promise.all(ids.map((id) => api("POST", `/_sandbox/shipments/${id}/status`, { status: "Delivered" })));

async function runPool(items, limit, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

async function baseline(ids, prebuilt) {
  const start = performance.now();
  await runPool(ids, CONCURRENCY, async (id) => {
    const res = await request(`${url}/api/v1/reports/${id}/1`, {
      method: "POST",
      dispatcher: agent,
      headers: { authorization: `Bearer ${TOKEN}`, accept: "application/json", "content-type": prebuilt.contentType, "content-length": String(prebuilt.body.length) },
      body: prebuilt.body,
    });
    await res.body.dump();
    if (res.statusCode !== 201) throw new Error(`baseline upload for ${id} answered ${res.statusCode}`);
  });
  return performance.now() - start;
}

// Reports the CLI's peak RSS (getrusage maxrss) when it exits, on a file descriptor of its own, with the phase marks
// shipctl sets (performance.mark "shipctl:report:*", ms since the process started) and when it exited.
const preload = join(work, "rss.mjs");
writeFileSync(
  preload,
  `import { writeSync } from "node:fs";\nprocess.on("exit", () => { try { writeSync(3, JSON.stringify({ maxRSS: process.resourceUsage().maxRSS, ` +
    `marks: Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name.replace("shipctl:report:", ""), m.startTime])), exit: performance.now() })); } catch {} });\n`,
);

function shipctl(ids, { keep = false, dir = batchRoot(ids) } = {}) {
  // Every folder holds the same photos (hard links): --allow-reused sends them, after the same hashing and look-ups a
  // batch of photos of their own costs.
  const args = ["--import", pathToFileURL(preload).href, bin, "report", "upload", "--batch", dir, "--set", "1", "--concurrency", String(CONCURRENCY), "--json", "--allow-reused"];
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", SHIPCTL_CONFIG_DIR: join(work, "config"), SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN },
    });
    let out = "";
    let err = "";
    let rss = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
    child.stdio[3].setEncoding("utf8").on("data", (d) => (rss += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      if (!keep) rmSync(dir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`shipctl exited ${code}\n${err}`));
      const { stored, skipped } = JSON.parse(out).counts;
      if (stored + skipped !== ids.length) return reject(new Error(`shipctl stored ${stored} of ${ids.length} reports`));
      const report = JSON.parse(rss);
      resolve({ ms, rssMb: (report.maxRSS * 1024) / 1e6, dir, phases: phasesOf(MARKS, report, ms) });
    });
  });
}

/**
 * Where one run's time went, in ms: between consecutive marks shipctl set (from the process start), up to its exit,
 * and what the parent saw beyond that (spawning node, tearing it down). Each span is named by the mark ending it;
 * a batch with nothing to send sets no "first-upload" mark.
 */
const MARKS = [
  ["started", "start-up: node, modules, flags"],
  ["checked", "check 240 photos"],
  ["ready", "API client, ledger open"],
  ["first-upload", "first shipment read, intent recorded"],
  ["uploaded", "shipment reads and uploads"],
  ["exit", "results, exit"],
];

try {
  const prebuilt = prebuiltBody();
  const baseIds = await createShipments(REPORTS);
  const cliIds = await createShipments(REPORTS);
  const totalMb = (REPORTS * prebuilt.body.length) / 1e6;
  // Warm-up: both paths once (JIT, connections, page cache).
  await redeliver([...baseIds, ...cliIds]);
  await baseline(baseIds, prebuilt);
  await shipctl(cliIds);

  const base = [];
  const cli = [];
  const rss20 = [];
  const rss10 = [];
  const fixed = [];
  const phases20 = [];
  const phasesFixed = [];
  for (let i = 0; i < rounds; i++) {
    await redeliver([...baseIds, ...cliIds]);
    base.push(totalMb / ((await baseline(baseIds, prebuilt)) / 1000));
    const run20 = await shipctl(cliIds, { keep: true });
    cli.push(totalMb / (run20.ms / 1000));
    rss20.push(run20.rssMb);
    phases20.push(run20.phases);
    // The same batch again: the ledger skips every report, leaving start-up, folder checks and the ledger.
    const skipped = await shipctl(cliIds, { dir: run20.dir });
    fixed.push(skipped.ms);
    phasesFixed.push(skipped.phases);
    await redeliver(cliIds.slice(0, 10));
    rss10.push((await shipctl(cliIds.slice(0, 10))).rssMb);
  }
  printTable(`Condition-report upload: ${REPORTS} reports x 12 x 1 MiB, concurrency ${CONCURRENCY}, sandbox latency ${LATENCY_MS} ms, median of ${rounds}`, [
    ["throughput: shipctl vs raw undici loop", median(cli), median(base), "MB/s", ">= 0.6x"],
    ["shipctl fixed cost: start, check 240 photos, ledger", median(fixed), undefined, "ms", "(in the figure above)"],
    ["peak RSS: shipctl, 20 reports", median(rss20), undefined, "MB", "<= 150 MB"],
    ["peak RSS: 20 reports vs 10 reports", median(rss20), median(rss10), "MB", "~1.0x (flat)"],
  ]);
  printPhases(`Where shipctl's time goes, 20 reports uploaded (median of ${rounds}, range)`, phases20);
  printPhases(`... and with every report already stored (the fixed cost above)`, phasesFixed);
} finally {
  await agent.close();
  sandbox.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
