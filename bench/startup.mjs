// Startup cost: median wall time of `shipctl --version`, `shipctl --help`, and `shipctl address verify` up to the
// moment its first request reaches a server, beside bare `node -e 0`, all measured in this run with the runs
// interleaved (A B C D, A B C D, ...) so machine noise falls on every figure alike.
// Goals (issue 3): --version and --help within 1.3x of bare node; a command up to its first request within 2.5x.
// shipctl keeps V8's code cache of undici and zod in a cache folder (src/code-cache.ts): here a folder of the run's
// own, filled by the warm-up run as a user's first run fills theirs. The last row shows verify with no cache at all
// (SHIPCTL_CACHE_DIR empty), what a first run after an install or upgrade costs; it has no goal.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, printTable } from "./_stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin/shipctl.js");
const rounds = Number(process.env.BENCH_ROUNDS ?? 25);
const configDir = mkdtempSync(join(tmpdir(), "shipctl-bench-"));
const addressFile = join(configDir, "address.json");
writeFileSync(
  addressFile,
  JSON.stringify({ name: "Gallery North", email: "ship@gallery.example", phone: "+12069536978", line_1: "1 Main Street",
    city: "Seattle", region: "WA", post_code: "98101", country: 1 }),
);

// The server notes when the first request of the current run arrives, then answers "valid".
let firstRequestAt = 0;
const server = createServer((req, res) => {
  if (!firstRequestAt) firstRequestAt = performance.now();
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-length": 0 }).end());
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}`;
const env = {
  ...process.env,
  NO_COLOR: "1",
  SHIPCTL_CONFIG_DIR: configDir,
  SHIPCTL_CACHE_DIR: join(configDir, "cache"),
  SHIPCTL_BASE_URL: url,
  SHIPCTL_TOKEN: "bench",
};

function timeRun(args, untilFirstRequest = false, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    firstRequestAt = 0;
    const start = performance.now();
    const child = spawn(process.execPath, args, { env: { ...env, ...extraEnv }, stdio: ["ignore", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", (code) => {
      if (untilFirstRequest) {
        if (!firstRequestAt) return reject(new Error(`no request reached the server (exit ${code})`));
        resolve(firstRequestAt - start);
      } else resolve(performance.now() - start);
    });
  });
}

const cases = [
  ["node -e 0", [ "-e", "0"], false],
  ["shipctl --version", [bin, "--version"], false],
  ["shipctl --help", [bin, "--help"], false],
  ["shipctl address verify (to 1st request)", [bin, "address", "verify", "--file", addressFile, "--no-input"], true],
  ["  the same, no code cache", [bin, "address", "verify", "--file", addressFile, "--no-input"], true, { SHIPCTL_CACHE_DIR: "" }],
];
const samples = cases.map(() => []);
for (const [, args, first, extraEnv] of cases) await timeRun(args, first, extraEnv); // warm the file cache once
for (let i = 0; i < rounds; i++) {
  for (let c = 0; c < cases.length; c++) samples[c].push(await timeRun(cases[c][1], cases[c][2], cases[c][3]));
}
server.close();

const base = median(samples[0]);
printTable(`Startup, median of ${rounds} interleaved runs (node ${process.version})`, [
  [cases[0][0], base, undefined, "ms"],
  [cases[1][0], median(samples[1]), base, "ms", "<= 1.3x"],
  [cases[2][0], median(samples[2]), base, "ms", "<= 1.3x"],
  [cases[3][0], median(samples[3]), base, "ms", "<= 2.5x"],
  [cases[4][0], median(samples[4]), base, "ms"],
]);
