// undici parses HTTP answers with WebAssembly. V8's optimizing tier would recompile that parser in the background on
// the first request: ~35 MB of peak memory and ~150 ms of a core, for answers too small to gain from it
// (bench/batch.mjs). The flag must be set before undici's first request, and before undici is compiled (V8 takes a
// code cache only under the flags it was made with): src/code-cache.ts sets it before it loads undici's script.
// It is not in bin/shipctl.js, so `--version`, `--help` and commands sending no request do not load node:v8.
import { setFlagsFromString } from "node:v8";

let set = false;

export function useBaselineWasmTier(): void {
  if (set) return;
  setFlagsFromString("--liftoff-only");
  set = true;
}
