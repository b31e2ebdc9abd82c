// Logic entry of `shipctl report upload` (loaded lazily by the wiring in index.ts).
import type { Deps } from "../../deps.js";
import { uploadBatch } from "../../reports/upload-batch.js";
import { parseUploadOptions, type UploadFlags } from "../../reports/upload-options.js";
import { markPhase } from "../../reports/report-phases.js";
import { uploadSingle } from "../../reports/upload-single.js";

export async function run(deps: Deps, args: string[], flags: UploadFlags): Promise<number> {
  markPhase("started");
  const options = parseUploadOptions(args, flags, deps.cwd);
  const source = options.source;
  if (source.kind === "single") return uploadSingle(deps, { ...options, source });
  return uploadBatch(deps, { ...options, source });
}
