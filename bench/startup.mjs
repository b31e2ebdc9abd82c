// Startup cost on two Nodes: the one running this bench (Node 20 on the project's machines) and Node 24. For each:
// median wall time of `shipctl --version`, `shipctl --help`, a TAB's `shipctl __complete` (no goal: it builds what
// --help builds, plus one noun's verbs), and `shipctl address verify` up to the moment its first
// request reaches a server, beside bare `node -e 0` of the same Node, all measured in this run with the runs
// interleaved (A B C D, A B C D, ...) so machine noise falls on every figure alike.
// Goals (issue 3): --version and --help within 1.3x of bare node; a command up to its first request within 2.5x.
// Beside --help, with no goal, the floor of any --help on commander (bench/_commander-floor.mjs): a program that only
// loads it, declares one command and prints its help, bundled as shipctl is.
// Node 24 is BENCH_NODE24 (a path to its `node`), or else the `node@24` npm package (bench/_nodes.mjs).
// verify's whole run, to its exit, is shown too (no goal): what a user waits for, the answer's handling and undici's
// first compile of its WebAssembly HTTP parser included.
// From Node 22.8, bin/shipctl.js turns on Node's compile cache, kept in the OS temp folder: here TMPDIR is a folder of
// the run's own, filled by the warm-up run as a user's first run fills theirs. Where Node has that cache, one more
// row shows verify without it (NODE_DISABLE_COMPILE_CACHE), what a first run after an install or upgrade costs; it
// has no goal.
import { execFileSync, spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildOptions } from "../scripts/build-options.mjs";
import { benchNodes, versionOf } from "./_nodes.mjs";
import { goalRows, printTable } from "./_stats.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin/shipctl.js");
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const configDir = mkdtempSync(join(tmpdir(), "shipctl-bench-"));
const addressFile = join(configDir, "address.json");
writeFileSync(
  addressFile,
  JSON.stringify({ name: "Gallery North", email: "ship@gallery.example", phone: "+12069536978", line_1: "1 Main Street",
    city: "Seattle", region: "WA", post_code: "98101", country: 1 }),
);

// The commander floor (bench/_commander-floor.mjs), bundled with shipctl's options, beside the config folder.
const floorDir = join(configDir, "floor");
const { banner, minify, format, platform, target } = buildOptions(root, floorDir);
await build({ entryPoints: [join(root, "bench/_commander-floor.mjs")], outfile: join(floorDir, "floor.mjs"), bundle: true, banner, minify, format, platform, target, logLevel: "warning" });

const hasCompileCache = (node) =>
  execFileSync(node, ["-p", "typeof require('node:module').enableCompileCache"], { encoding: "utf8" }).trim() === "function";
const nodes = benchNodes();

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
  SHIPCTL_BASE_URL: url,
  SHIPCTL_TOKEN: "bench",
  TMPDIR: join(configDir, "tmp"),
  // The user's own compile cache settings would move or disable the one measured here.
  NODE_COMPILE_CACHE: undefined,
  NODE_DISABLE_COMPILE_CACHE: undefined,
};
mkdirSync(env.TMPDIR);

function timeRun(node, args, untilFirstRequest, extraEnv) {
  return new Promise((resolve, reject) => {
    firstRequestAt = 0;
    const start = performance.now();
    const child = spawn(node, args, { env: { ...env, ...extraEnv }, stdio: ["ignore", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", (code) => {
      if (untilFirstRequest) {
        if (!firstRequestAt) return reject(new Error(`${node}: no request reached the server (exit ${code})`));
        resolve(firstRequestAt - start);
      } else resolve(performance.now() - start);
    });
  });
}

const verify = [bin, "address", "verify", "--file", addressFile, "--no-input"];
const tables = nodes.map((node) => ({
  node,
  version: versionOf(node),
  cases: [
    { label: "node -e 0", args: ["-e", "0"] },
    { label: "shipctl --version", args: [bin, "--version"], goal: 1.3 },
    { label: "shipctl --help", args: [bin, "--help"], goal: 1.3 },
    // No goal: what loading commander costs before shipctl builds anything (the floor of --help on this parser).
    { label: "  commander alone, a 1-command --help", args: [join(floorDir, "floor.mjs"), "--help"] },
    // What each TAB of the completion scripts runs (shipctl completion): the command tree and the shipment verbs.
    { label: "shipctl __complete shipment cr (a TAB)", args: [bin, "__complete", "shipment", "cr"] },
    { label: "shipctl address verify (to 1st request)", args: verify, first: true, goal: 2.5 },
    { label: "  the same, to its exit", args: verify },
    ...(hasCompileCache(node)
      ? [{ label: "  the same, no compile cache (a first run)", args: verify, first: true, env: { NODE_DISABLE_COMPILE_CACHE: "1" } }]
      : []),
  ],
}));
const all = tables.flatMap((t) => t.cases.map((c) => ({ ...c, node: t.node, samples: [] })));
for (const c of all) await timeRun(c.node, c.args, c.first, c.env); // warm the file cache and the compile cache once
for (let i = 0; i < rounds; i++) {
  for (const c of all) c.samples.push(await timeRun(c.node, c.args, c.first, c.env));
}
server.close();
rmSync(configDir, { recursive: true, force: true });

const missed = [];
for (const [t, table] of tables.entries()) {
  const cases = all.filter((c) => c.node === table.node);
  const rows = goalRows(cases, table.version, missed);
  if (t > 0) console.log("");
  printTable(`Startup on node ${table.version} (${table.node}), median of ${rounds} interleaved runs`, rows);
}
console.log(missed.length ? `\nGoals missed: ${missed.join("; ")}` : "\nEvery start-up goal met on every Node measured.");
