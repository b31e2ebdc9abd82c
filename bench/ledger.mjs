// `shipctl shipment create --csv` against an organization's ledger holding 100,000 entries, beside the same run
// against an empty ledger (issue 21): one row, and a batch of 10,000 (BENCH_LEDGER_BATCH_ROWS), whose every row is
// looked up and claimed. The local store keeps settled entries in 4,096 bucket files and claims in flight a file each,
// so a run reads only its keys' buckets and claims: goal, at most 1.2x for both. The full ledger is written as the
// local store lays it out (src/ledger/local-store.ts), once for the 1-row runs and afresh for each batch (a batch adds
// its own 10,000 entries); BENCH_LEDGER_ENTRIES sets its size. Rounds alternate the two ledgers, each run new rows (new
// shipments), so machine noise falls on both alike. BENCH_ROUNDS (default 5; the batch runs 3 of them at most) sets
// the rounds. Needs `npm run build` first.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { control, startSandbox } from "./_sandbox.mjs";
import { median } from "./_stats.mjs";
import { shipmentRows, toCsv } from "../fixtures/csv/generate.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin/shipctl.js");
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const ENTRIES = Number(process.env.BENCH_LEDGER_ENTRIES ?? 100_000);
const BATCH_ROWS = Number(process.env.BENCH_LEDGER_BATCH_ROWS ?? 10_000);
/** As src/ledger/local-store.ts names a bucket: this many hex digits of its keys' hash. */
const BUCKET_DIGITS = 3;
const TOKEN = "bench-token";
const GOAL = 1.2;
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-ledger-"));

/** The organization's ledger folder of `url` in `state`, as src/ledger/organization.ts names it. */
function ledgerOf(state, url) {
  return join(state, "ledger", createHash("sha256").update(url.replace(/\/+$/, "").toLowerCase()).digest("hex").slice(0, 20));
}

/** Writes `n` settled entries (shipments created by another input) into the ledger's buckets (src/ledger/local-store.ts). */
function fill(dir, n, token = TOKEN) {
  const buckets = new Map();
  for (let i = 0; i < n; i++) {
    const key = `shipment:filler-${i}`;
    const bucket = createHash("sha256").update(key).digest("hex").slice(0, BUCKET_DIGITS);
    const line = `\n${JSON.stringify({ key, input: "/archive/orders.csv", state: { state: "created", id: i + 1 } })}`;
    buckets.set(bucket, (buckets.get(bucket) ?? "") + line);
  }
  mkdirSync(join(dir, "entries"), { recursive: true });
  for (const [bucket, text] of buckets) writeFileSync(join(dir, "entries", `${bucket}.jsonl`), text);
  // The token's mark (src/ledger/organization.ts, markFor): without it, entries are checked as another token's, and
  // the runs, not finding them on the service, start a ledger of their own beside this one.
  const salt = "bench-salt";
  const hash = createHash("sha256").update(salt).update("\n").update(token).digest("base64url");
  writeFileSync(join(dir, "owner.json"), `${JSON.stringify({ salt, hash })}\n`);
}

function runOnce(url, state, csv, token = TOKEN) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, "shipment", "create", "--csv", csv], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NO_COLOR: "1", SHIPCTL_CONFIG_DIR: join(work, "config"), SHIPCTL_STATE_DIR: state, SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: token },
    });
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`shipctl exited ${code}: ${err}`))));
  });
}

/** The two medians of `times` side by side, and the goal. */
function report(what, times, n) {
  const [e, f] = [median(times.empty), median(times.full)];
  const ratio = f / e;
  process.stdout.write(`${what}, empty ledger: ${e.toFixed(0)} ms; ${ENTRIES.toLocaleString("en-US")} entries: ${f.toFixed(0)} ms (medians of ${n})\n`);
  process.stdout.write(`  ratio: ${ratio.toFixed(2)}x (goal <= ${GOAL}x) ${ratio <= GOAL ? "met" : "MISSED"}\n`);
}

const { url, child } = await startSandbox({ token: TOKEN });
try {
  const empty = join(work, "empty-state");
  const full = join(work, "full-state");
  mkdirSync(empty, { recursive: true });
  const filled = performance.now();
  fill(ledgerOf(full, url), ENTRIES);
  process.stdout.write(`ledger of ${ENTRIES.toLocaleString("en-US")} entries written in ${((performance.now() - filled) / 1000).toFixed(1)} s\n`);
  const times = { empty: [], full: [] };
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 === 0 ? ["empty", "full"] : ["full", "empty"]) {
      const csv = join(work, `one-${which}-${r}.csv`);
      writeFileSync(csv, toCsv(shipmentRows(1, { seed: 1000 + r * 2 + (which === "full" ? 1 : 0), titlePrefix: `Ledger ${which} ${r}` })));
      times[which].push(await runOnce(url, which === "empty" ? empty : full, csv));
    }
  }
  // The runs used the filled ledger (the same folder the CLI names): it now holds their records.
  if (!existsSync(join(ledgerOf(full, url), "inputs"))) throw new Error("the runs did not use the filled ledger");
  report("1-row create", times, rounds);

  const batchRounds = Math.min(rounds, 3);
  const batch = { empty: [], full: [] };
  // Every batch's ledger and file are made before the first batch runs, and removed only when the bench ends: see
  // "Removing files slows the next run" in docs/development.md.
  const batches = [];
  for (let r = 0; r < batchRounds; r++) {
    for (const which of r % 2 === 0 ? ["empty", "full"] : ["full", "empty"]) {
      // A new organization per batch: one that already holds earlier runs' shipments makes every run slower than the last.
      const { token } = await control(url, TOKEN, "POST", "/_sandbox/organizations");
      const state = join(work, `batch-${which}-${r}`);
      mkdirSync(state, { recursive: true });
      if (which === "full") fill(ledgerOf(state, url), ENTRIES, token);
      const csv = join(work, `batch-${which}-${r}.csv`);
      writeFileSync(csv, toCsv(shipmentRows(BATCH_ROWS, { seed: 5000 + r * 2 + (which === "full" ? 1 : 0), titlePrefix: `Batch ${which} ${r}` })));
      batches.push({ which, state, csv, token });
    }
  }
  for (const b of batches) batch[b.which].push(await runOnce(url, b.state, b.csv, b.token));
  report(`${BATCH_ROWS.toLocaleString("en-US")}-row create`, batch, batchRounds);
} finally {
  child.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
