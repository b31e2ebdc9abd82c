// undici parses HTTP answers with WebAssembly. V8's optimizing tier would recompile that parser in the background on
// the first request: ~35 MB of peak memory and ~150 ms of a core, for answers too small to gain from it
// (bench/batch.mjs). The flag must be set before undici's first request: lazyAction (src/commands/action.ts) sets it
// before any command's logic runs. It is not in bin/shipctl.js, where loading node:v8 cost every run ~2 ms,
// `--version` and `--help` included, which never send a request.
import { setFlagsFromString } from "node:v8";

let set = false;

export function useBaselineWasmTier(): void {
  if (set) return;
  setFlagsFromString("--liftoff-only");
  set = true;
}
