// Bundles src/ into dist/ with code splitting: each command's logic lands in its own chunk and is
// loaded with import() only when that command runs, so `--help` and `--version` stay close to bare node.
import { build } from "esbuild";
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
// Build beside dist/ and swap it in with two renames, so a CLI started by a test running at the same moment
// never finds dist/ half-written or missing.
const dist = new URL("../dist", import.meta.url);
const fresh = new URL(`../.dist-${process.pid}`, import.meta.url);
const stale = new URL(`../.dist-old-${process.pid}`, import.meta.url);
rmSync(fresh, { recursive: true, force: true });
// Bundled CommonJS dependencies call require() for node built-ins; give ESM chunks one. Only the chunks that use it
// keep it (in practice esbuild's runtime chunk, whose __require every bundled require() goes through): the import
// of node:module and the createRequire call cost every other chunk start-up time for nothing.
const requireBanner =
  "import { createRequire as __shipctlCreateRequire } from 'node:module'; const require = __shipctlCreateRequire(import.meta.url);";
// Dependencies' modules loaded at start-up only to be used in a path shipctl never or rarely takes: each is loaded
// on first use instead (measured with bench/startup.mjs). The edit is exact: if a dependency changes the line, the
// build stops and names it, rather than silently starting slower.
const deferred = [
  // commander spawns executable subcommands (which shipctl has none of) with child_process: ~2 ms of built-ins.
  {
    file: "node_modules/commander/lib/command.js",
    from: "const childProcess = require('node:child_process');",
    to: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  // undici's HTTP/2 client loads node:http2, and with it tls, crypto and perf_hooks (~30 built-in modules); it is
  // only used when a TLS connection negotiates h2, which shipctl's Agent never asks for.
  {
    file: "node_modules/undici/lib/dispatcher/client.js",
    from: "const connectH2 = require('./client-h2.js')",
    to: "const connectH2 = (...args) => require('./client-h2.js')(...args)",
  },
];
const deferLoads = {
  name: "defer-loads",
  setup(b) {
    for (const d of deferred) {
      const path = realpathSync(new URL(`../${d.file}`, import.meta.url));
      b.onLoad({ filter: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`) }, () => {
        const text = readFileSync(path, "utf8");
        if (!text.includes(d.from)) throw new Error(`${d.file} no longer contains "${d.from}": update the deferred loads in scripts/build.mjs`);
        return { contents: text.replace(d.from, d.to), loader: "js" };
      });
    }
  },
};
const result = await build({
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
  banner: { js: requireBanner },
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  sourcemap: "linked",
  logLevel: "warning",
  write: false,
  plugins: [deferLoads],
});
for (const file of result.outputFiles) {
  let text = file.text;
  // The banner is line 1: blank it rather than remove it, so the source map's line numbers still hold.
  if (file.path.endsWith(".js") && !/\brequire\b/.test(text.slice(requireBanner.length))) text = text.slice(requireBanner.length);
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, text);
}
try {
  renameSync(dist, stale);
} catch (e) {
  if (e.code !== "ENOENT") throw e;
}
renameSync(fresh, dist);
rmSync(stale, { recursive: true, force: true });
