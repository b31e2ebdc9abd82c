// Bundles src/ into dist/ with code splitting: each command's logic lands in its own chunk and is
// loaded with import() only when that command runs, so `--help` and `--version` stay close to bare node.
// undici and zod are built apart, as plain scripts that src/code-cache.ts compiles with V8's code cache.
import { build } from "esbuild";
import * as zodModule from "zod";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
// Build beside dist/ and swap it in with two renames, so a CLI started by a test running at the same moment
// never finds dist/ half-written or missing.
const dist = join(root, "dist");
const fresh = join(root, `.dist-${process.pid}`);
const stale = join(root, `.dist-old-${process.pid}`);
rmSync(fresh, { recursive: true, force: true });

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
      const path = realpathSync(join(root, d.file));
      b.onLoad({ filter: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`) }, () => {
        const text = readFileSync(path, "utf8");
        if (!text.includes(d.from)) throw new Error(`${d.file} no longer contains "${d.from}": update the deferred loads in scripts/build.mjs`);
        return { contents: text.replace(d.from, d.to), loader: "js" };
      });
    }
  },
};

/** zod's names src/ uses (`z.object`, `z.ZodError`...), found in the sources; names that are not values are left out. */
function zodNamesUsed() {
  const values = new Set(Object.keys(zodModule));
  // z.core holds all of zod's internals; src/ names it in types only (z.core.$ZodIssue). A value use of a name left
  // out here fails the build ("No matching export"), so nothing goes missing unnoticed.
  values.delete("core");
  const used = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) for (const m of readFileSync(path, "utf8").matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) used.add(m[1]);
    }
  };
  walk(join(root, "src"));
  return [...used].filter((name) => values.has(name)).sort();
}

// The vendor scripts: what src/ imports from a package, re-exported by a CommonJS script built on its own.
// src/ imports them as usual; the plugin below hands it a module that loads the script through src/code-cache.ts.
// Every import of such a package must be listed: a second copy of it (bundled in the chunks as well as in the
// script) would mean two sets of classes.
// commander is not among them: its compiling costs `--help` less than loading a script and its cache (measured).
const zodNames = zodNamesUsed();
const vendors = [
  {
    name: "undici",
    imports: { "undici/lib/dispatcher/agent.js": "Agent", "undici/lib/api/api-request.js": "request" },
    entry: "module.exports = { Agent: require('undici/lib/dispatcher/agent.js'), request: require('undici/lib/api/api-request.js') };",
  },
  // src/ reads zod as `import * as z from "zod"`: the script exports the names src/ uses (so it keeps only what
  // those need, as the chunks did: ~100 KB of zod's ~450 KB).
  { name: "zod", imports: { zod: zodNames }, entry: `export { ${zodNames.join(", ")} } from "zod";` },
];
const vendorFiles = new Map();
for (const vendor of vendors) {
  const out = await build({
    stdin: { contents: vendor.entry, resolveDir: root, sourcefile: `${vendor.name}-vendor.js` },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20.19",
    minify: true,
    write: false,
    outfile: "vendor.cjs",
    logLevel: "warning",
    plugins: [deferLoads],
  });
  const text = out.outputFiles[0].text;
  // Named by content: the code cache of one build is never taken for another's.
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 12);
  vendorFiles.set(vendor.name, { fileName: `${vendor.name}-${hash}.cjs`, text });
}
const codeCacheModule = join(root, "src/code-cache.ts");
const vendorScripts = {
  name: "vendor-scripts",
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${vendors.map((v) => v.name).join("|")})(/.*)?$`) }, (args) => {
      const vendor = vendors.find((v) => args.path in v.imports);
      if (!vendor) throw new Error(`${args.importer} imports "${args.path}": add it to the vendor scripts in scripts/build.mjs`);
      return { path: args.path, namespace: `vendor-${vendor.name}` };
    });
    for (const vendor of vendors) {
      b.onLoad({ filter: /.*/, namespace: `vendor-${vendor.name}` }, (args) => {
        const wanted = vendor.imports[args.path];
        const { fileName } = vendorFiles.get(vendor.name);
        const load = `import { loadVendorScript } from ${JSON.stringify(codeCacheModule)};\nconst m = loadVendorScript(new URL("./${fileName}", import.meta.url));\n`;
        // Named exports through local names: some of zod's ("catch", "function") are reserved words.
        const exports = Array.isArray(wanted)
          ? `${wanted.map((n, i) => `const v${i} = m[${JSON.stringify(n)}];`).join("\n")}\nexport { ${wanted.map((n, i) => `v${i} as ${n}`).join(", ")} };`
          : `export default m.${wanted};`;
        return { contents: `${load}${exports}\n`, loader: "js", resolveDir: root };
      });
    }
  },
};

// Bundled CommonJS dependencies call require() for node built-ins; give ESM chunks one. Only the chunks that use it
// keep it (in practice esbuild's runtime chunk, whose __require every bundled require() goes through). Built-ins
// come from process.getBuiltinModule (Node >= 20.16); a real require (createRequire: ~0.7 ms on its first call,
// plus the import of node:module) is made only if something else is ever asked for.
const requireBanner =
  "let __shipctlRequire; const require = (id) => process.getBuiltinModule(id) ?? (__shipctlRequire ??= process.getBuiltinModule('node:module').createRequire(import.meta.url))(id);";
const result = await build({
  entryPoints: { main: "src/main.ts" },
  absWorkingDir: root,
  outdir: fresh,
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
  metafile: true,
  plugins: [deferLoads, vendorScripts],
});
for (const file of result.outputFiles) {
  let text = file.text;
  // The banner is line 1: blank it rather than remove it, so the source map's line numbers still hold.
  if (file.path.endsWith(".js") && !/\brequire\b/.test(text.slice(requireBanner.length))) text = text.slice(requireBanner.length);
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, text);
}
// Each vendor script goes beside the chunk that loads it (the URL in that chunk is relative to it).
for (const [output, meta] of Object.entries(result.metafile.outputs)) {
  for (const vendor of vendors) {
    if (!Object.keys(meta.inputs).some((input) => input.startsWith(`vendor-${vendor.name}:`))) continue;
    const { fileName, text } = vendorFiles.get(vendor.name);
    writeFileSync(join(root, dirname(output), fileName), text);
  }
}
try {
  renameSync(dist, stale);
} catch (e) {
  if (e.code !== "ENOENT") throw e;
}
renameSync(fresh, dist);
rmSync(stale, { recursive: true, force: true });
