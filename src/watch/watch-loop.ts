// `shipctl watch`: read the watched shipments, report each status that changed since the last reading (or since the
// last watch, from the state folder), wait, again. The wait starts at --interval and doubles after every reading
// that found nothing new, up to --max-interval; a change brings it back to --interval. A 429 is waited out by the API
// client (Retry-After); one that outlasts its retries, or the service being down, is reported and waited out here
// (the longer of the doubled wait and Retry-After): a watch runs for days and must outlive an outage. Only the first
// reading fails the run on such errors, so a wrong base URL is said at once.
import type { Deps } from "../deps.js";
import type { RetryInfo } from "../api/client-types.js";
import { ApiUnavailableError, RateLimitedError } from "../api/api-errors.js";
import { serviceNow } from "../api/service-clock.js";
import { ExitCode, InterruptedError, errorJson, messageOf } from "../errors.js";
import { ShipmentStatus, shipmentStatusName } from "../contract/enums.js";
import { ndjsonLine, printErrorJson } from "../output/json.js";
import { allReached, changesSince, eventLine, type ShipmentReading, type WatchEvent } from "./changes.js";
import { runHook } from "./exec-hook.js";
import { readStatuses } from "./read-statuses.js";
import { loadWatchState, saveWatchState, watchStatePath, type Seen } from "./watch-state.js";

export interface WatchPlan {
  /** The shipments to watch, or "all": every shipment of the list not yet Completed. */
  ids: number[] | "all";
  intervalMs: number;
  maxIntervalMs: number;
  /** Stop (exit 0) once every watched shipment has this status or a later one. */
  until?: number;
  /** Run through the shell once per event, the event's JSON on stdin. */
  exec?: string;
  ndjson: boolean;
}

/** Returns the exit code: 0 once --until is reached, 130 when stopped. */
export async function watchShipments(deps: Deps, plan: WatchPlan): Promise<ExitCode> {
  const connection = await deps.connection();
  const api = await deps.api();
  const path = watchStatePath(deps.env, connection.profile, connection.baseUrl);
  const state = await loadWatchState(path);
  const seen = new Map(state.seen);
  /** What this run read: only these are written back, so another watch's newer entries are not overwritten. */
  const read = new Map<number, Seen>();
  let dirty = false;
  const save = async () => {
    if (!dirty) return;
    await saveWatchState(path, connection, read, deps.clock.now());
    dirty = false;
  };

  let wait = plan.intervalMs;
  let first = true;
  try {
    for (;;) {
      let throttled = false;
      const onRetry = (info: RetryInfo) => void (throttled ||= info.reason.includes("rate limited"));
      let readings: ShipmentReading[];
      try {
        readings = await readStatuses(api, plan.ids, { signal: deps.signal, onRetry });
      } catch (err) {
        if (first || !(err instanceof ApiUnavailableError) || deps.signal.aborted) throw err;
        wait = longer(wait, plan);
        const pause = Math.max(wait, err instanceof RateLimitedError ? (err.retryAfterMs ?? 0) : 0);
        deps.io.alert(`watch: could not read the shipments (${err.message}); trying again in ${seconds(pause)}\n`);
        await deps.clock.sleep(pause, deps.signal);
        continue;
      }
      // The service's now: it stamps the changes, and judges the windows they open.
      const now = serviceNow(api.serviceClockOffsetMs?.(), deps.clock);
      const events = changesSince(seen, readings, now);
      for (const { id, status, title } of readings) {
        const before = seen.get(id);
        if (before?.status !== status || before.title !== title) dirty = true;
        seen.set(id, { status, title });
        read.set(id, { status, title });
      }
      if (first) deps.io.err(startLine(readings, plan, state.existed, path));
      for (const event of events) await report(deps, plan, event, now);
      await save();
      if (plan.until !== undefined && allReached(readings, plan.until)) {
        deps.io.alert(`Every watched shipment is ${shipmentStatusName(plan.until)} or later.\n`);
        return ExitCode.Ok;
      }
      wait = events.length > 0 || first ? plan.intervalMs : longer(wait, plan);
      if (throttled) wait = longer(wait, plan);
      first = false;
      await deps.clock.sleep(wait, deps.signal);
    }
  } catch (err) {
    await save().catch((e: unknown) => deps.io.alert(`watch: could not save ${path}: ${messageOf(e)}\n`));
    if (deps.signal.aborted || err instanceof InterruptedError) {
      // Ctrl-C is how a watch ends, and a watch sends nothing that could be left half done: no error, no error line
      // in the stream; the exit code alone tells a script that it was stopped rather than --until reached.
      // A terminal has just echoed "^C" where the cursor was: the line starts below it, not after it.
      const below = deps.io.stderrIsTTY ? "\n" : "";
      const next = "the next watch reports what changes meanwhile";
      deps.io.alert(`${below}Stopped. The last statuses seen are kept in ${path}: ${next}.\n`);
      return ExitCode.Interrupted;
    }
    if (plan.ndjson) printErrorJson(deps.io, errorJson(err), { ndjson: true });
    throw err;
  }
}

async function report(deps: Deps, plan: WatchPlan, event: WatchEvent, now: Date): Promise<void> {
  deps.io.out(plan.ndjson ? ndjsonLine(event) : eventLine(event, now));
  if (plan.exec === undefined) return;
  const failed = await runHook(plan.exec, event, { cwd: deps.cwd, env: deps.env, signal: deps.signal, output: (text) => deps.io.err(text) });
  deps.signal.throwIfAborted();
  if (failed) deps.io.alert(`watch: --exec failed for ${event.id} ${event.from} → ${event.to}: ${failed}\n`);
}

/** The next wait after a reading that found nothing new: twice as long, up to --max-interval. */
function longer(wait: number, plan: WatchPlan): number {
  return Math.min(plan.maxIntervalMs, wait * 2);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function startLine(readings: readonly ShipmentReading[], plan: WatchPlan, resumed: boolean, path: string): string {
  const open = readings.filter((r) => r.status !== ShipmentStatus.Completed);
  const counts = new Map<string, number>();
  for (const r of open) counts.set(shipmentStatusName(r.status), (counts.get(shipmentStatusName(r.status)) ?? 0) + 1);
  const byStatus = [...counts].map(([name, n]) => `${n} ${name}`).join(", ");
  const what = plan.ids === "all" ? `${open.length} shipment${open.length === 1 ? "" : "s"} not yet Completed` : `${readings.length} shipment${readings.length === 1 ? "" : "s"}`;
  const since = resumed ? "changes since the last watch first, then " : "";
  return (
    `Watching ${what}${byStatus ? ` (${byStatus})` : ""}: ${since}every ${seconds(plan.intervalMs)}, slowing to ${seconds(plan.maxIntervalMs)} ` +
    `while nothing changes. State: ${path}. Ctrl-C to stop.\n`
  );
}
