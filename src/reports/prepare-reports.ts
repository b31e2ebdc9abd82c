// Everything that happens before the first byte is sent: check every folder, shrink oversized photos (--fit), and
// stop with the complete list of problems if any remain. Nothing is sent while one folder has a problem, so a batch
// never ends half-uploaded because of a HEIC found in folder 17.
import { readFile } from "node:fs/promises";
import type { Deps } from "../deps.js";
import { errorJson, InterruptedError, UsageError } from "../errors.js";
import type { ReportTarget } from "./batch-sources.js";
import { checkFolder } from "./folder-check.js";
import { createFitWorkspace, writeCopy, type FitWorkspace } from "./fit.js";
import { fitMany, unlessStopped, type FitManyOptions } from "./fit-many.js";
import { FitCache } from "./fit-cache.js";
import { cacheDir } from "../config/paths.js";
import type { Photo, Problem, ReusedPhoto } from "./report-types.js";
import { stripLocation } from "./photo-metadata.js";
import { printJson, withError } from "../output/json.js";
import { mapLimit } from "../batch/pool.js";
import { loadSharp } from "./sharp-module.js";
import { displayPath } from "../output/display-path.js";
import type { UploadPlan } from "./upload-plan.js";

export interface PreparedReport {
  target: ReportTarget;
  /** The 12 photos in upload order (fitted copies where --fit changed one). */
  photos: Photo[];
  warnings: Problem[];
  /** --fit with `fitLater`: the photos over the limit not fitted yet (`photos` still holds the originals). */
  pending?: Photo[];
  /** Its photos that another set sent before, or another folder of this run holds too (reused-photos.ts). */
  reused?: ReusedPhoto[];
  /** The content hashes of its photos that it records as its own once it is sent, with their original files. */
  ownPhotos?: Array<{ sha256: string; file: string }>;
}

export interface FolderProblems {
  /** The folder as the user named it. */
  folder: string;
  shipmentId?: number;
  problems: Problem[];
}

/** Folders are read a few at a time: enough to hide disk latency, few enough for a shared machine. */
const CHECK_CONCURRENCY = 4;

/**
 * The plan's --by-order, --fit and --strip-location (photos are sent without their GPS position: withoutLocations),
 * and the stop and the rerun command of the fitting (fit-many.ts).
 */
export interface PrepareOptions extends Pick<UploadPlan, "byOrder" | "fit">, Omit<FitManyOptions, "cache"> {
  json: boolean;
  /**
   * Leave the oversized photos for `fitPending`, so the caller can first find which reports will be sent (a rerun
   * of a finished batch fits nothing). Ignored when a folder has a problem: then every folder is fitted at once, so
   * every problem (one that fitting finds too) is listed in one go.
   */
  fitLater?: boolean;
}

export interface Prepared {
  reports: PreparedReport[];
  /** Fits the pending photos of these reports (exit 2 listing what cannot be made to fit, nothing sent). */
  fitPending(reports: readonly PreparedReport[]): Promise<void>;
  /** Removes the fitted copies: call after the upload. */
  dispose(): Promise<void>;
}

/** Checks (and with --fit, shrinks) every folder. Throws UsageError (exit 2) after printing every problem when any folder has one. */
export async function prepareReports(deps: Deps, targets: readonly ReportTarget[], options: PrepareOptions, sourceProblems: FolderProblems[] = []): Promise<Prepared> {
  const signal = options.signal;
  // Photos may need sharp (a JPEG cut short, --fit): a system that cannot load it stops here, before anything is sent.
  await loadSharp();
  const keepChecking = () => !signal?.aborted;
  const checks = await mapLimit(targets, CHECK_CONCURRENCY, (t) => checkFolder(t.folder, options), keepChecking);
  if (signal?.aborted) throw new InterruptedError("interrupted while the photos were being checked: nothing was sent");
  let workspace: FitWorkspace | undefined;
  let cache: Promise<FitCache | undefined> | undefined;
  /** --strip-location, after fitting, on the photos that will be sent (fitted copies were stripped as they were made). */
  const stripLocations = async (chosen: readonly PreparedReport[]) => {
    if (!options.stripLocation) return;
    workspace ??= await createFitWorkspace();
    for (const r of chosen) {
      const dir = await workspace.dirFor(r.target.shipmentId);
      r.photos = await unlessStopped(withoutLocations(r.photos, dir, signal), signal, () => new InterruptedError("interrupted while locations were being removed: nothing was sent"));
      deps.io.err(`${deps.theme.err.accent("Location")} ${r.target.label}: ${locationLine(r.photos)}\n`);
    }
  };
  const dispose = async () => {
    await workspace?.dispose();
    workspace = undefined;
  };
  /** Fits the pending photos of `chosen` into their reports; returns the folders with photos that cannot be made to fit. */
  const fitReports = async (chosen: readonly PreparedReport[]): Promise<FolderProblems[]> => {
    const jobs = chosen.filter((r) => r.pending);
    if (jobs.length === 0) return [];
    workspace ??= await createFitWorkspace();
    cache ??= FitCache.open(cacheDir(deps.env, process.platform));
    const fitJobs = jobs.map((r) => ({ target: r.target, oversized: r.pending! }));
    const result = await fitMany(deps, fitJobs, workspace, { ...options, cache: await cache });
    for (const r of jobs) {
      r.photos = r.photos.map((p) => result.replaced.get(p) ?? p);
      delete r.pending;
    }
    return jobs.flatMap((r, j) => (result.problems[j]!.length > 0 ? [{ folder: r.target.label, shipmentId: r.target.shipmentId, problems: result.problems[j]! }] : []));
  };
  try {
    const failing: FolderProblems[] = [...sourceProblems];
    const reports: PreparedReport[] = [];
    for (const [i, target] of targets.entries()) {
      const check = checks[i]!;
      if (check.problems.length > 0) failing.push({ folder: target.label, shipmentId: target.shipmentId, problems: [...check.problems] });
      else reports.push({ target, photos: check.photos, warnings: check.warnings, ...(check.oversized.length > 0 ? { pending: check.oversized } : {}) });
    }
    const later = Boolean(options.fitLater) && failing.length === 0;
    if (!later) failing.push(...(await fitReports(reports)));
    if (failing.length > 0) refuse(deps, failing, options.json);
    printWarnings(deps, reports);
    if (!later) await stripLocations(reports);
    const fitPending = async (chosen: readonly PreparedReport[]) => {
      const failed = await fitReports(chosen);
      if (failed.length > 0) refuse(deps, failed, options.json);
      await stripLocations(chosen);
    };
    return { reports, fitPending, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** Prints every problem and throws the refusal (exit 2, nothing sent). */
function refuse(deps: Deps, failing: readonly FolderProblems[], json: boolean): never {
  const count = failing.reduce((n, f) => n + f.problems.length, 0);
  const where = failing.length === 1 ? failing[0]!.folder : `${failing.length} folders`;
  const refusal = new UsageError(`${count} problem${count === 1 ? "" : "s"} in ${where}: nothing was sent`, {
    hint: "fix them and run the same command again",
  });
  const t = deps.theme.err;
  for (const f of failing) {
    const id = f.shipmentId === undefined ? "" : ` (shipment ${f.shipmentId})`;
    deps.io.alert(`${t.error("Problems in")} ${t.bold(f.folder)}${id}:\n`);
    for (const p of f.problems) {
      deps.io.alert(p.file ? `  ${t.bold(p.file)}: ${p.problem}\n` : `  ${p.problem}\n`);
      if (p.fix) deps.io.alert(`    ${t.dim(`fix: ${p.fix}`)}\n`);
    }
  }
  if (json) {
    printJson(
      deps.io,
      withError(
        {
          sent: false,
          problems: failing.flatMap((f) =>
            f.problems.map((p) => ({ folder: f.folder, shipment_id: f.shipmentId ?? null, file: p.file, problem: p.problem, fix: p.fix })),
          ),
        },
        errorJson(refusal),
      ),
    );
  }
  throw refusal;
}

function printWarnings(deps: Deps, reports: readonly PreparedReport[]): void {
  const note = deps.theme.err.warn("Note:");
  const nearLimit = reports.flatMap((r) => r.warnings.filter((w) => w.kind === "near-limit").map((w) => displayPath(r.target.label, w.file)));
  for (const r of reports) {
    for (const w of r.warnings) {
      if (w.kind === "near-limit" && nearLimit.length > NEAR_LIMIT_LISTED) continue;
      deps.io.err(`${note} ${displayPath(r.target.label, w.file)} ${w.problem}${w.fix ? `; ${w.fix}` : ""}\n`);
    }
  }
  if (nearLimit.length > NEAR_LIMIT_LISTED) {
    deps.io.err(
      `${note} ${nearLimit.length} photos are over 1,000,000 bytes (within the 1,048,576-byte limit), e.g. ${nearLimit.slice(0, 2).join(", ")}; ` +
        "a service that reads 1 MB as 1,000,000 bytes would refuse them; --fit sends copies of at most 1,000,000 bytes\n",
    );
  }
}

/** Beyond this many photos near the limit, one summary line replaces a note per photo. */
const NEAR_LIMIT_LISTED = 3;

/**
 * --strip-location: the GPS position, often a collector's home, removed in copies in `dir`, byte for byte otherwise
 * (photo-metadata.ts: no re-encoding); photos --fit copied were stripped while fitting.
 */
async function withoutLocations(photos: readonly Photo[], dir: string, signal?: AbortSignal): Promise<Photo[]> {
  const out: Photo[] = [];
  for (const photo of photos) {
    signal?.throwIfAborted();
    if (photo.fitted) {
      out.push(photo);
      continue;
    }
    const { data, stripped } = stripLocation(await readFile(photo.path), photo.type);
    out.push(stripped ? { ...photo, path: await writeCopy(dir, photo, photo.type, data), bytes: data.length, locationStripped: true } : photo);
  }
  return out;
}

/** What --strip-location did in one folder, said once: how many photos had a position removed. */
export function locationLine(photos: readonly Photo[]): string {
  const n = photos.filter((p) => p.locationStripped).length;
  if (n === 0) return "no photo has a GPS position: sent as they are";
  return `GPS position removed from ${n} photo${n === 1 ? "" : "s"} (copies; pixels and the rest of the metadata unchanged)`;
}
