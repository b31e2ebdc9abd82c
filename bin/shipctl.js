#!/usr/bin/env node
// undici parses HTTP answers with WebAssembly. V8's optimizing tier would recompile that parser in the background on
// the first request: ~35 MB of peak memory and ~150 ms of a core, for answers too small to gain from it
// (bench/batch.mjs). The flag must be set before undici's first request, so before anything loads.
import { setFlagsFromString } from "node:v8";
setFlagsFromString("--liftoff-only");
const { main, systemDeps } = await import("../dist/main.js");
process.exitCode = await main(process.argv.slice(2), systemDeps());
