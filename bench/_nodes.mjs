// The Nodes a benchmark compares: the one running it (Node 20 on the project's machines) and Node 24. Node 24 is
// BENCH_NODE24 (a path to its `node`), or else the node@24 npm package, installed on first use into a cache folder
// outside the repository, as .ci/run installs it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The `node` of Node 24: BENCH_NODE24, or the node@24 npm package in a cache folder of its own (installed once). */
export function node24() {
  if (process.env.BENCH_NODE24) return process.env.BENCH_NODE24;
  const prefix = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "shipctl-bench", "node24");
  const path = join(prefix, "node_modules", ".bin", "node");
  if (!existsSync(path)) {
    console.log(`Installing the node@24 npm package into ${prefix} (once; or set BENCH_NODE24 to a Node 24 binary)`);
    mkdirSync(prefix, { recursive: true });
    execFileSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "node@24"], { stdio: ["ignore", "ignore", "inherit"] });
  }
  return path;
}

/** The running Node, then Node 24 (unless the running one is Node 24). */
export function benchNodes() {
  return process.version.startsWith("v24.") ? [process.execPath] : [process.execPath, node24()];
}

export const versionOf = (node) => execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
