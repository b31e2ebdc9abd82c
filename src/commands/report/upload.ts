// Logic entry of `shipctl report upload` (loaded lazily by the wiring in index.ts).
import type { Deps } from "../../deps.js";
import { uploadBatch } from "./batch.js";
import { parseUploadOptions, type UploadFlags } from "./options.js";
import { markPhase } from "./phases.js";
import { uploadSingle } from "./single.js";

export async function run(deps: Deps, args: string[], flags: UploadFlags): Promise<number> {
  markPhase("started");
  const options = parseUploadOptions(args, flags, deps.cwd);
  const source = options.source;
  if (source.kind === "single") return uploadSingle(deps, { ...options, source });
  return uploadBatch(deps, { ...options, source });
}
