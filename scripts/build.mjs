// Bundles src/ into dist/ with esbuild and code splitting: each command's logic lands in its own chunk and is loaded
// with import() only when that command runs, so `--help` and `--version` stay close to bare node.
import { build } from "esbuild";
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDefines } from "./build-info.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

// Build beside dist/ and swap it in with two renames, so a CLI started by a test running at the same moment
// never finds dist/ half-written or missing.
const dist = join(root, "dist");
const fresh = join(root, `.dist-${process.pid}`);
const stale = join(root, `.dist-old-${process.pid}`);
rmSync(fresh, { recursive: true, force: true });

await build({
  entryPoints: { main: "src/main.ts" },
  absWorkingDir: root,
  outdir: fresh,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  // sharp ships a native binary per platform: it must be resolved from the installed package at run time.
  // pg-native is pg's optional native binding, required only when asked for (pg.native): we never do, nor ship it.
  external: ["sharp", "pg-native"],
  // The version, commit and build date `shipctl version` prints (scripts/build-info.mjs).
  define: buildDefines(root),
  // Bundled CommonJS dependencies (commander, undici...) call require() for Node's built-ins; an ES module has none.
  // The banner is in every chunk, and only the chunk of esbuild's own helper calls it: each makes its require on
  // first call, not as it loads (bench/startup.mjs: a createRequire per chunk shows in --version and --help). It has
  // no require.resolve, which no bundled package calls.
  banner: {
    js: 'let createdRequire; const require = (id) => (createdRequire ??= process.getBuiltinModule("node:module").createRequire(import.meta.url))(id);',
  },
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
