// esbuild's options for shipctl's bundle, in one place: scripts/build.mjs builds dist/ with them, and bench/batch.mjs
// builds a variant beside it (the ledger's store doing nothing) that must differ from dist/ in that one module only.
import { buildDefines } from "./build-info.mjs";

/** The options for bundling `root`/src into `outdir`. */
export function buildOptions(root, outdir) {
  return {
    entryPoints: { main: "src/main.ts" },
    absWorkingDir: root,
    outdir,
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
  };
}
