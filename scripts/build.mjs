// Bundles src/ into dist/ with code splitting: each command's logic lands in its own chunk and is
// loaded with import() only when that command runs, so `--help` and `--version` stay close to bare node.
import { build } from "esbuild";
import { readFileSync, renameSync, rmSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
// Build beside dist/ and swap it in with two renames, so a CLI started by a test running at the same moment
// never finds dist/ half-written or missing.
const dist = new URL("../dist", import.meta.url);
const fresh = new URL(`../.dist-${process.pid}`, import.meta.url);
const stale = new URL(`../.dist-old-${process.pid}`, import.meta.url);
rmSync(fresh, { recursive: true, force: true });
await build({
  entryPoints: { main: "src/main.ts" },
  outdir: fresh.pathname,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  // sharp ships a native binary per platform: it must be resolved from node_modules at run time.
  external: ["sharp"],
  define: { __SHIPCTL_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for node built-ins; give ESM chunks one.
  banner: { js: "import { createRequire as __shipctlCreateRequire } from 'node:module'; const require = __shipctlCreateRequire(import.meta.url);" },
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  sourcemap: "linked",
  logLevel: "warning",
});
try {
  renameSync(dist, stale);
} catch (e) {
  if (e.code !== "ENOENT") throw e;
}
renameSync(fresh, dist);
rmSync(stale, { recursive: true, force: true });
