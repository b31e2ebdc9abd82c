#!/usr/bin/env node
import module from "node:module";
// Node 22.8 and later keep V8's compiled code of dist/ between runs (in $NODE_COMPILE_CACHE, or else a folder in the
// OS temp folder); a cache that cannot be used or written is skipped silently. Node 20 has no such cache.
// dist/ is imported after it, with import(): a static import would be compiled before this line runs.
module.enableCompileCache?.();
// Node 20 stays alive after the last request while V8 tiers undici's HTTP parser (WebAssembly) up in the background
// (nodejs/node#36616; Node 22 and later exit at once): `address verify` waited 300-700 ms after printing its answer.
// Its baseline code parses our small answers as well, so Node 20 skips the tier-up.
if (process.versions.node.startsWith("20.")) process.getBuiltinModule("node:v8").setFlagsFromString("--liftoff-only");
const { main, systemDeps } = await import("../dist/main.js");
process.exitCode = await main(process.argv.slice(2), systemDeps());
