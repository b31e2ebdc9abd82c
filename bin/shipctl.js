#!/usr/bin/env node
import module from "node:module";
// Node 22.8 and later keep V8's compiled code of dist/ between runs (in $NODE_COMPILE_CACHE, or else a folder in the
// OS temp folder); a cache that cannot be used or written is skipped silently. Node 20 has no such cache.
// dist/ is imported after it, with import(): a static import would be compiled before this line runs.
module.enableCompileCache?.();
const { main, systemDeps } = await import("../dist/main.js");
process.exitCode = await main(process.argv.slice(2), systemDeps());
