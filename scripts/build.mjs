// Bundles src/ into dist/ with code splitting: each command's logic lands in its own chunk and is
// loaded with import() only when that command runs, so `--help` and `--version` stay close to bare node.
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { main: "src/main.ts" },
  outdir: "dist",
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
