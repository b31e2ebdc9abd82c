// End-to-end tests run the built CLI: build it before any test runs, so a test never meets a stale dist/.
// Skipped when dist/ is newer than every source file (parallel runs then leave one another's dist/ alone).
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function builtAt(): number {
  try {
    return statSync(join(root, "dist/main.js")).mtimeMs;
  } catch {
    return 0;
  }
}

export default function setup(): void {
  const inputs = ["src", "package.json", "scripts/build.mjs", "scripts/build-info.mjs"];
  const sources = Math.max(...inputs.map((path) => newestMtime(join(root, path))));
  if (builtAt() > sources) return;
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { stdio: "inherit" });
}
