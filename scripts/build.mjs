// Bundles src/ into dist/ with esbuild and code splitting: each command's logic lands in its own chunk and is loaded
// with import() only when that command runs, so `--help` and `--version` stay close to bare node.
import { build } from "esbuild";
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOptions } from "./build-options.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

// Build beside dist/ and swap it in with two renames, so a CLI started by a test running at the same moment
// never finds dist/ half-written or missing.
const dist = join(root, "dist");
const fresh = join(root, `.dist-${process.pid}`);
const stale = join(root, `.dist-old-${process.pid}`);
rmSync(fresh, { recursive: true, force: true });

await build(buildOptions(root, fresh));
try {
  renameSync(dist, stale);
} catch (e) {
  if (e.code !== "ENOENT") throw e;
}
renameSync(fresh, dist);
rmSync(stale, { recursive: true, force: true });
