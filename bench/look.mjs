// The look before a create (issue 23, src/shipments/look/): the list pages (GET /api/v1/shipments) it reads before a
// 10-row `shipment create --csv`, in organizations of 5,000 and 50,000 shipments, beside the full scan of the same
// organization measured in the same run (`shipctl list shipments --all --limit 50 --ndjson`: every page at the look's
// page size, what a look that did not learn the order would read).
// Goals: a look a day later reads the same count, within 2 pages, at 5,000 and at 50,000; the first look grows with the
// logarithm of the size (found by bisecting), never with the size.
//
// Each organization is another machine's history: shipments made at 130 a day (one every 11 minutes), the newest a day
// and an hour old, so the 7-day window holds about 910 of them (19 pages) at any size, and the rest is history the
// look must not read. Then, with this machine's own config (and so state) folder:
//   1. first look: the sandbox's clock is set back a day (the service's "now" is a day ago) and a 10-row sheet is
//      created: the pages read before its one create request;
//   2. a day later: the clock back to now, 130 shipments made over that day by the other machine, and another 10-row
//      sheet created: the pages the later look reads;
//   3. the full scan of the organization.
// Every run must exit 0 and create its 10 rows. The sandbox runs in its own process with no added latency (pages are
// what is counted; the wall time of each run is printed for the record). Needs `npm run build` first.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { control, runShipctl, startSandbox } from "./_sandbox.mjs";
import { printTable } from "./_stats.mjs";
import { shipmentRows, toCsv } from "../fixtures/csv/generate.mjs";

const SIZES = (process.env.BENCH_LOOK_SIZES ?? "5000,50000").split(",").map(Number);
const DAY = 86_400_000;
const PER_DAY = 130;
const STEP = Math.floor(DAY / PER_DAY);
const ROWS = 10;
const TOKEN = "bench-token";
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-look-"));

const cli = runShipctl;

const stamp = (ms) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

async function pagesRead(ctl) {
  return (await ctl("GET", "/_sandbox/requests?method=GET&path=/api/v1/shipments")).data.length;
}

/** A 10-row create as this machine; returns the list pages it read and its wall time. */
async function create(target, ctl, name) {
  const csv = join(target.dir, `${name}.csv`);
  writeFileSync(csv, toCsv(shipmentRows(ROWS, { seed: 11, titlePrefix: `${name} ${target.n}` })));
  await ctl("DELETE", "/_sandbox/requests");
  const r = await cli(["shipment", "create", "--csv", csv, "--json"], target);
  if (r.code !== 0) throw new Error(`${name} at ${target.n} exited ${r.code}: ${r.err}`);
  const counts = JSON.parse(r.out).counts;
  if (counts.created !== ROWS) throw new Error(`${name} at ${target.n} created ${counts.created} of ${ROWS}`);
  return { pages: await pagesRead(ctl), ms: r.ms };
}

async function trial(url, n) {
  const { token } = await control(url, TOKEN, "POST", "/_sandbox/organizations");
  const ctl = (method, path, body) => control(url, token, method, path, body);
  const now = Date.now();
  const newest = now - DAY - 3_600_000;
  await ctl("POST", "/_sandbox/shipments/seed", { count: n, created_from: stamp(newest - (n - 1) * STEP), created_step_ms: STEP, title_prefix: "Held" });
  const dir = mkdtempSync(join(work, "trial-"));
  const target = { url, token, config: join(dir, "config"), dir, n };

  await ctl("PUT", "/_sandbox/clock", { offset_ms: -DAY });
  const first = await create(target, ctl, "First");
  await ctl("DELETE", "/_sandbox/clock");
  await ctl("POST", "/_sandbox/shipments/seed", { count: PER_DAY, created_from: stamp(now - DAY + STEP), created_step_ms: STEP, title_prefix: "Day" });
  const later = await create(target, ctl, "Later");

  await ctl("DELETE", "/_sandbox/requests");
  const scan = await cli(["list", "shipments", "--all", "--limit", "50", "--ndjson"], target);
  if (scan.code !== 0) throw new Error(`the full scan at ${n} exited ${scan.code}: ${scan.err}`);
  const held = scan.out.trim().split("\n").length;
  if (held !== n + PER_DAY + 2 * ROWS) throw new Error(`the organization of ${n} holds ${held}, not ${n + PER_DAY + 2 * ROWS}`);
  return { n, first, later, scan: { pages: await pagesRead(ctl), ms: scan.ms } };
}

const { url, child } = await startSandbox({ token: TOKEN });
try {
  const results = [];
  for (const n of SIZES) results.push(await trial(url, n));
  printTable(
    "Pages the look reads before a 10-row create (GET /api/v1/shipments, 50 a page), beside a full scan of the organization",
    results.flatMap((r) => [
      [`${r.n.toLocaleString("en-US")}: first look (run ${Math.round(r.first.ms)} ms)`, r.first.pages, r.scan.pages, "pages", "log of the size"],
      [`${r.n.toLocaleString("en-US")}: a day later, 130 new (run ${Math.round(r.later.ms)} ms)`, r.later.pages, r.scan.pages, "pages", "same at any size, +-2"],
    ]),
  );
  if (results.length >= 2) {
    const [a, b] = [results[0], results[results.length - 1]];
    const sameLater = Math.abs(a.later.pages - b.later.pages) <= 2;
    const firstGrowth = b.first.pages - a.first.pages;
    const logGrowth = Math.log2(b.n / a.n);
    console.log(`Goal: a look a day later reads the same count within 2 pages at ${a.n} and ${b.n}: ${a.later.pages} and ${b.later.pages}: ${sameLater ? "met" : "MISSED"}`);
    console.log(
      `Goal: the first look grows with the log of the size: ${a.first.pages} -> ${b.first.pages} pages (+${firstGrowth}) for ${b.n / a.n}x the shipments ` +
        `(two bisections of log2 ${b.n / a.n} = ${logGrowth.toFixed(1)} steps each; the full scan grew ${b.scan.pages - a.scan.pages} pages): ` +
        `${firstGrowth <= 2 * Math.ceil(logGrowth) + 2 ? "met" : "MISSED"}`,
    );
  }
} finally {
  child.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
