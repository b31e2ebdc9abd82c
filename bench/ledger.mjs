// `shipctl shipment create --csv` of one row against an organization's ledger holding 100,000 entries, beside the same
// run against an empty ledger (issue 21). The local store keeps settled entries in 256 bucket files and claims in
// flight a file each, so a run reads only its keys' buckets and claims: goal, at most 1.2x. The full ledger is written once, before the
// rounds (BENCH_LEDGER_ENTRIES sets its size), as the local store lays it out (src/ledger/local-store.ts). Rounds
// alternate the two ledgers, each run a new row (a new shipment), so machine noise falls on both alike. BENCH_ROUNDS
// (default 5) sets the rounds. Needs `npm run build` first.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox } from "./_sandbox.mjs";
import { median } from "./_stats.mjs";
import { shipmentRows, toCsv } from "../fixtures/csv/generate.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin/shipctl.js");
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const ENTRIES = Number(process.env.BENCH_LEDGER_ENTRIES ?? 100_000);
const TOKEN = "bench-token";
const GOAL = 1.2;
const work = mkdtempSync(join(tmpdir(), "shipctl-bench-ledger-"));

/** The organization's ledger folder of `url` in `state`, as src/ledger/organization.ts names it. */
function ledgerOf(state, url) {
  return join(state, "ledger", createHash("sha256").update(url.replace(/\/+$/, "").toLowerCase()).digest("hex").slice(0, 20));
}

/** Writes `n` settled entries (shipments created by another input) into the ledger's buckets (src/ledger/local-store.ts). */
function fill(dir, n) {
  const buckets = new Map();
  for (let i = 0; i < n; i++) {
    const key = `shipment:filler-${i}`;
    const bucket = createHash("sha256").update(key).digest("hex").slice(0, 2);
    const line = `\n${JSON.stringify({ key, input: "/archive/orders.csv", state: { state: "created", id: i + 1 } })}`;
    buckets.set(bucket, (buckets.get(bucket) ?? "") + line);
  }
  mkdirSync(join(dir, "entries"), { recursive: true });
  for (const [bucket, text] of buckets) writeFileSync(join(dir, "entries", `${bucket}.jsonl`), text);
  // The token's mark (src/ledger/organization.ts, markFor): without it, entries are checked as another token's, and
  // the runs, not finding them on the service, start a ledger of their own beside this one.
  const salt = "bench-salt";
  const hash = createHash("sha256").update(salt).update("\n").update(TOKEN).digest("base64url");
  writeFileSync(join(dir, "owner.json"), `${JSON.stringify({ salt, hash })}\n`);
}

function runOnce(url, state, csv) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, "shipment", "create", "--csv", csv], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NO_COLOR: "1", SHIPCTL_CONFIG_DIR: join(work, "config"), SHIPCTL_STATE_DIR: state, SHIPCTL_BASE_URL: url, SHIPCTL_TOKEN: TOKEN },
    });
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`shipctl exited ${code}: ${err}`))));
  });
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
  const [e, f] = [median(times.empty), median(times.full)];
  const ratio = f / e;
  process.stdout.write(`1-row create, empty ledger:           ${e.toFixed(0)} ms (median of ${rounds})\n`);
  process.stdout.write(`1-row create, ${ENTRIES.toLocaleString("en-US")} entries:       ${f.toFixed(0)} ms (median of ${rounds})\n`);
  process.stdout.write(`ratio: ${ratio.toFixed(2)}x (goal <= ${GOAL}x) ${ratio <= GOAL ? "met" : "MISSED"}\n`);
} finally {
  child.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
