// Everything that happens before the first byte is sent: check every folder, shrink oversized photos (--fit), and
// stop with the complete list of problems if any remain. Nothing is sent while one folder has a problem, so a batch
// never ends half-uploaded because of a HEIC found in folder 17.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { errorJson, InterruptedError, UsageError } from "../errors.js";
import type { ReportTarget } from "./batch-sources.js";
import { checkFolder, type FolderCheck } from "./folder-check.js";
import { createFitWorkspace, describeFit, fitPhoto, type FitWorkspace } from "./fit.js";
import type { Photo, Problem } from "./report-types.js";
import { locationLine, withoutLocations } from "./strip-location.js";
import { printJson, withError } from "../output/json.js";
import { mapLimit } from "../batch/pool.js";

export interface PreparedReport {
  target: ReportTarget;
  /** The 12 photos in upload order (fitted copies where --fit changed one). */
  photos: Photo[];
  warnings: Problem[];
}

export interface FolderProblems {
  /** The folder as the user named it. */
  folder: string;
  shipmentId?: number;
  problems: Problem[];
}

/** Folders are read a few at a time: enough to hide disk latency, few enough for a shared machine. */
const CHECK_CONCURRENCY = 4;

export interface PrepareOptions {
  byOrder: boolean;
  fit: boolean;
  /** --strip-location: photos are sent without their GPS position (strip-location.ts). */
  stripLocation?: boolean;
  json: boolean;
  /** The run stops (Ctrl-C): checks and fitting end at once, nothing is sent. */
  signal?: AbortSignal;
}

/**
 * Checks (and with --fit, shrinks) every folder. Throws UsageError (exit 2) after printing every problem when any
 * folder has one. The fit workspace, when one was needed, must be disposed by the caller after the upload.
 */
export async function prepareReports(
  deps: Deps,
  targets: readonly ReportTarget[],
  options: PrepareOptions,
  sourceProblems: FolderProblems[] = [],
): Promise<{ reports: PreparedReport[]; workspace?: FitWorkspace }> {
  const signal = options.signal;
  const checks = await mapLimit(targets, CHECK_CONCURRENCY, (t) => checkFolder(t.folder, { byOrder: options.byOrder, fit: options.fit }), () => !signal?.aborted);
  if (signal?.aborted) throw stopped();
  const failing: FolderProblems[] = [...sourceProblems];
  let workspace: FitWorkspace | undefined;
  const reports: PreparedReport[] = [];
  try {
    for (const [i, target] of targets.entries()) {
      const check = checks[i]!;
      const problems = [...check.problems];
      let photos = check.photos;
      if (problems.length === 0 && (check.oversized.length > 0 || options.stripLocation)) {
        workspace ??= await createFitWorkspace();
        const fitted = await fitOversized(deps, target, check, workspace, signal, options.stripLocation);
        problems.push(...fitted.problems);
        photos = fitted.photos;
        if (options.stripLocation && problems.length === 0) {
          photos = await unlessStopped(withoutLocations(photos, await subdir(workspace.dir, target.shipmentId), signal), signal);
          deps.io.err(`${deps.theme.err.accent("Location")} ${target.label}: ${locationLine(photos)}\n`);
        }
      }
      if (problems.length > 0) failing.push({ folder: target.label, shipmentId: target.shipmentId, problems });
      else reports.push({ target, photos, warnings: check.warnings });
    }
    if (failing.length > 0) {
      const count = failing.reduce((n, f) => n + f.problems.length, 0);
      const where = failing.length === 1 ? failing[0]!.folder : `${failing.length} folders`;
      const refusal = new UsageError(`${count} problem${count === 1 ? "" : "s"} in ${where}: nothing was sent`, {
        hint: "fix them and run the same command again",
      });
      reportProblems(deps, failing, options.json, refusal);
      throw refusal;
    }
    printWarnings(deps, reports);
    return { reports, workspace };
  } catch (e) {
    await workspace?.dispose();
    throw e;
  }
}

function stopped(): InterruptedError {
  return new InterruptedError("interrupted while the photos were being checked: nothing was sent");
}

/** `work`, or a rejection the moment `signal` aborts: the work is abandoned (its own outcome ignored). */
function unlessStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(stopped());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function fitOversized(deps: Deps, target: ReportTarget, check: FolderCheck, workspace: FitWorkspace, signal: AbortSignal | undefined, stripLocation = false) {
  const problems: Problem[] = [];
  const replaced = new Map<Photo, Photo>();
  for (const photo of check.oversized) {
    // Fitting takes a second or more a photo: a stopping run does not wait for it.
    const result = await unlessStopped(fitPhoto(photo, await subdir(workspace.dir, target.shipmentId), undefined, signal, { stripLocation }), signal);
    if (!result.ok) {
      problems.push(result.problem);
      continue;
    }
    replaced.set(photo, result.photo);
    deps.io.err(`${deps.theme.err.accent("Fitted")} ${where(target, photo.file)}: ${describeFit(result.photo)}; the original is unchanged\n`);
  }
  return { problems, photos: check.photos.map((p) => replaced.get(p) ?? p) };
}

/** One folder per shipment inside the workspace: fitted copies of different reports share names. */
async function subdir(dir: string, shipmentId: number): Promise<string> {
  const path = join(dir, String(shipmentId));
  await mkdir(path, { recursive: true });
  return path;
}

function where(target: ReportTarget, file: string): string {
  return `${target.label}/${file}`;
}

export function reportProblems(deps: Deps, failing: readonly FolderProblems[], json: boolean, refusal: UsageError): void {
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
}

function printWarnings(deps: Deps, reports: readonly PreparedReport[]): void {
  const note = deps.theme.err.warn("Note:");
  const nearLimit = reports.flatMap((r) => r.warnings.filter((w) => w.kind === "near-limit").map((w) => where(r.target, w.file)));
  for (const r of reports) {
    for (const w of r.warnings) {
      if (w.kind === "near-limit" && nearLimit.length > NEAR_LIMIT_LISTED) continue;
      deps.io.err(`${note} ${where(r.target, w.file)} ${w.problem}${w.fix ? `; ${w.fix}` : ""}\n`);
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
