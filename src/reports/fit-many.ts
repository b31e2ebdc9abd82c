// --fit over many photos: every oversized photo of every folder goes through the one pool (mapLimit), a few at a time.
// Encoding a photo keeps about one core busy (libvips spreads little of one JPEG over threads), so one photo per core
// uses the machine; more would only hold more decoded images in memory at once. A stopping run (Ctrl-C) starts no
// further photo and stops waiting for those in flight: it ends at once, and nothing has been sent.
import { displayPath } from "../output/display-path.js";
import { availableParallelism } from "node:os";
import type { Deps } from "../deps.js";
import { InterruptedError } from "../errors.js";
import { mapLimit } from "../batch/pool.js";
import type { ReportTarget } from "./batch-sources.js";
import { createFitProgress, type FitProgress } from "./progress.js";
import { describeFit, fitPhoto, type FitResult, type FitWorkspace } from "./fit.js";
import type { FitCache } from "./fit-cache.js";
import type { Photo, Problem } from "./report-types.js";

/** Photos fitted at a time: one per core, and never more than this on a large machine (memory: a decoded photo is 100 MB and more). */
export const MAX_FIT_CONCURRENCY = 4;
export const fitConcurrency = (): number => Math.max(1, Math.min(availableParallelism(), MAX_FIT_CONCURRENCY));

export interface FitJob {
  target: ReportTarget;
  /** The photos over the limit, in the folder's order. */
  oversized: readonly Photo[];
}

export interface FitOutcome {
  /** Original -> copy, for the photos fitted. */
  replaced: Map<Photo, Photo>;
  /** What could not be made to fit, per job (same order as the jobs). */
  problems: Problem[][];
}

export interface FitManyOptions {
  /** The run stops (Ctrl-C): checks and fitting end at once, nothing is sent. */
  signal?: AbortSignal;
  /** The command to run again, said when a stop ends the fitting. */
  rerun?: string;
  /** --strip-location: fitted copies are made without the GPS position. */
  stripLocation?: boolean;
  /** Copies made by earlier runs, taken instead of fitting again (fit-cache.ts). */
  cache?: FitCache;
}

export async function fitMany(deps: Deps, jobs: readonly FitJob[], workspace: FitWorkspace, options: FitManyOptions = {}): Promise<FitOutcome> {
  const { signal } = options;
  const items = jobs.flatMap((job, j) => job.oversized.map((photo) => ({ job: j, photo })));
  const outcome: FitOutcome = { replaced: new Map(), problems: jobs.map(() => []) };
  if (items.length === 0) return outcome;
  const progress = createFitProgress(deps.io, items.length);
  const fitOne = async ({ job, photo }: (typeof items)[number]) => {
    const target = jobs[job]!.target;
    const dir = await workspace.dirFor(target.shipmentId);
    const rules = { stripLocation: options.stripLocation };
    const make = () => fitPhoto(photo, dir, undefined, signal, rules);
    const result = options.cache ? await options.cache.fit(photo, dir, rules, make) : await make();
    if (signal?.aborted) return;
    if (!result.ok) outcome.problems[job]!.push(result.problem);
    else outcome.replaced.set(photo, result.photo);
    progress.fitted(photo.bytes, result.ok ? result.photo.bytes : 0);
    if (result.ok) progress.log(fittedLine(deps, target, photo, result));
  };
  try {
    await unlessStopped(
      mapLimit(items, fitConcurrency(), fitOne, () => !signal?.aborted),
      signal,
      () => stopped(progress, items.length, options.rerun),
    );
    if (signal?.aborted) throw stopped(progress, items.length, options.rerun);
  } finally {
    progress.finish();
  }
  return outcome;
}

function fittedLine(deps: Deps, target: ReportTarget, photo: Photo, result: Extract<FitResult, { ok: true }>): string {
  const earlier = result.cached ? " (the copy an earlier run made)" : "";
  return `${deps.theme.err.accent("Fitted")} ${displayPath(target.label, photo.file)}: ${describeFit(result.photo)}${earlier}; the original is unchanged\n`;
}

function stopped(progress: FitProgress, total: number, rerun: string | undefined): InterruptedError {
  return new InterruptedError(`interrupted while the photos were being fitted (${progress.done} of ${total} done): nothing was sent`, {
    hint: rerun === undefined ? undefined : `To finish, run the same command again:\n  ${rerun}`,
  });
}

/** `work`, or a rejection the moment `signal` aborts: the work is abandoned (its own outcome ignored). */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal | undefined, stop: () => Error): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(stop());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
