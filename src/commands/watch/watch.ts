// `shipctl watch [ids...]`: its wiring, options and run. The loop (src/watch/) is loaded only when the command runs.
import { Command, Option } from "commander";
import { DEFAULT_READ_CONCURRENCY } from "../../batch/concurrency.js";
import { completesWith } from "../../completion/value-source.js";
import { ShipmentStatus, shipmentStatusFromName, shipmentStatusName } from "../../contract/enums.js";
import { UsageError } from "../../errors.js";
import { parseId } from "../../input/ids.js";
import type { Deps } from "../../deps.js";
import type { WatchPlan } from "../../watch/watch-loop.js";
import { verbAction, type ActionResult, type CommandContext, type VerbRun } from "../action.js";
import { printsRecords } from "../record-output.js";
import { WATCH_EVENT_FIELDS } from "../../watch/event-fields.js";

interface WatchFlags {
  interval?: string;
  maxInterval?: string;
  until?: string;
  exec?: string;
  ndjson?: boolean;
}

/** Seconds. The floor keeps a watch (or many) from hammering a service that publishes no rate limit. */
export const WATCH_INTERVAL = { default: 30, min: 1, maxDefault: 300 } as const;

const HELP_AFTER = `
The service sends no notifications, so watch reads: each shipment given, or with no ids every page of
the list, ${DEFAULT_READ_CONCURRENCY} pages at a time (shipments not yet Completed are watched). One line per change on
stdout, in local time with its zone (UTC, or its offset from UTC):
  1201 Delivered → Filed at 14:02 UTC+01:00
  1202 Shipped → Arrived at 14:05 UTC+01:00 (set 2 window closes 2026-11-26 14:05 UTC+01:00)
or with --ndjson one JSON object per line:
  {"id":1202,"title":"...","from":"Shipped","to":"Arrived","at":"...Z","window_closes_at":"...Z"}
(times in UTC, ISO 8601; window_closes_at is null unless the new status opens a condition-report
window: 30 days after Delivered for set 1, 24 hours after Arrived for set 2). A shipment seen for the
first time is the baseline, not a change. The last line may be {"error": ...} when the watch fails;
Ctrl-C, the way to end a watch, prints one "Stopped." line on stderr and no error (exit 130).

Timing: a reading every --interval seconds (default ${WATCH_INTERVAL.default}, at least ${WATCH_INTERVAL.min}); each reading that finds
nothing new doubles the wait, up to --max-interval (default ${WATCH_INTERVAL.maxDefault}); a change brings it back. A 429 is
waited out as Retry-After says and slows the watch down; an outage after the first reading is reported
on stderr and waited out.

State: the last statuses seen are kept per profile and base URL in the state folder
($XDG_STATE_HOME/shipctl/watch, ~/.local/state/shipctl/watch; SHIPCTL_STATE_DIR moves it), so a watch
started again first reports what changed while none ran.

--exec CMD runs CMD through the shell (sh -c; cmd.exe on Windows) once per change, in order, with the
event's JSON on its stdin; its output goes to stderr. A failing CMD is reported on stderr and the watch
goes on. Ctrl-C stops CMD and all it started (docs/windows-macos.md has a hook for each shell).

Examples:
  shipctl watch                                  every shipment not yet Completed
  shipctl watch 1201 1202 --until Arrived        exit 0 once both have arrived (or gone further)
  shipctl watch --ndjson | jq -c 'select(.to == "Arrived")'
  shipctl watch --exec 'jq -r .title | mail -s "shipment moved" ops@example.com'

Exit codes: 0 --until reached · 2 bad arguments · 4 not logged in · 6 an id does not exist ·
7 the service unavailable at the first reading · 130 Ctrl-C (state saved).
`;

export function watchCommand(ctx: CommandContext, run: VerbRun<WatchPlan> = runWatch, command = new Command("watch")): Command {
  command
    .description("report shipments' status changes as they happen (or since the last watch)")
    .argument("[id...]", "shipment ids (separate words or comma-separated); none: every shipment not yet Completed")
    .option("--interval <seconds>", `time between readings (default ${WATCH_INTERVAL.default}, at least ${WATCH_INTERVAL.min})`)
    .option("--max-interval <seconds>", `longest time between readings while nothing changes (default ${WATCH_INTERVAL.maxDefault})`)
    .addOption(completesWith(new Option("--until <status>", "exit 0 once every watched shipment has this status or a later one (name or number)"), "statuses"))
    .option("--exec <command>", "run this shell command for each change, the change as JSON on its stdin")
    .option("--ndjson", "one JSON object per change, per line")
    .addHelpText("after", HELP_AFTER);
  // Each --ndjson line is an event (--exec still receives the whole event).
  printsRecords(command, { in: [], fields: WATCH_EVENT_FIELDS, outputs: ["ndjson"] });
  return command.action(verbAction(ctx, parseWatch, run));
}

export function parseWatch(args: readonly string[], flags: WatchFlags): WatchPlan {
  const words = args.flatMap((a) => a.split(",")).map((w) => w.trim()).filter((w) => w !== "");
  const ids = [...new Set(words.map((w) => parseId(w, "shipment id")))];
  if (args.length > 0 && ids.length === 0) {
    throw new UsageError("the shipment ids given are blank", {
      hint: "Give ids (shipctl watch 1201 1202), or none to watch every shipment not yet Completed.",
    });
  }
  const intervalS = flags.interval === undefined ? WATCH_INTERVAL.default : seconds(flags.interval, "--interval");
  const maxS = flags.maxInterval === undefined ? Math.max(WATCH_INTERVAL.maxDefault, intervalS) : seconds(flags.maxInterval, "--max-interval");
  if (maxS < intervalS) throw new UsageError(`--max-interval (${maxS}) is shorter than --interval (${intervalS})`);
  if (flags.exec !== undefined && flags.exec.trim() === "") throw new UsageError("--exec needs a command");
  return {
    ids: ids.length > 0 ? ids : "all",
    intervalMs: Math.round(intervalS * 1000),
    maxIntervalMs: Math.round(maxS * 1000),
    ...(flags.until === undefined ? {} : { until: parseStatus(flags.until) }),
    ...(flags.exec === undefined ? {} : { exec: flags.exec }),
    ndjson: flags.ndjson === true,
  };
}

function seconds(text: string, flag: string): number {
  const value = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(value >= WATCH_INTERVAL.min)) {
    throw new UsageError(`${flag} "${text}" is not a number of seconds from ${WATCH_INTERVAL.min}`, {
      hint: `The service publishes no rate limit: shipctl reads at most once a second. E.g. ${flag} ${WATCH_INTERVAL.default}.`,
    });
  }
  return value;
}

/** A status by name (any case, "drop off") or number. */
export function parseStatus(text: string): number {
  const trimmed = text.trim();
  const byNumber = /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
  const status = byNumber !== undefined && Object.values(ShipmentStatus).includes(byNumber as ShipmentStatus) ? byNumber : shipmentStatusFromName(trimmed);
  if (status === undefined) {
    const names = Object.values(ShipmentStatus).map((s) => `${shipmentStatusName(s)} (${s})`).join(", ");
    throw new UsageError(`--until "${text}" is not a shipment status`, { hint: `One of: ${names}.` });
  }
  return status;
}

export async function runWatch(options: WatchPlan, deps: Deps): Promise<ActionResult> {
  if (deps.globals.json) {
    throw new UsageError("watch prints a stream, not one document: use --ndjson instead of --json", {
      hint: "shipctl watch --ndjson prints one JSON object per change.",
    });
  }
  const { watchShipments } = await import("../../watch/watch-loop.js");
  return watchShipments(deps, options);
}
