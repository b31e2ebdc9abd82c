// `shipctl sandbox clock [+25h | -90m] [--set TIME [--frozen]] [--reset]`: shows or moves the clock of a running
// sandbox's organization (PUT/GET/DELETE /_sandbox/clock): the time its records, report windows and Date headers
// read. Refused when the base URL is not a sandbox.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { parseDuration } from "../../input/duration.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { momentText, sandboxMoment, type SandboxMoment } from "./sandbox-moment.js";
import { RUNNING_SANDBOX_HELP } from "./running-sandbox-help.js";

export type SandboxClockOptions =
  | { action: "show" }
  | { action: "shift"; ms: number }
  | { action: "set"; at: SandboxMoment; frozen: boolean }
  | { action: "reset" };

interface ClockFlags {
  set?: string;
  frozen?: boolean;
  reset?: boolean;
}

export function sandboxClockCommand(ctx: CommandContext, run: VerbRun<SandboxClockOptions> = runSandboxClock): Command {
  const command = new Command("clock")
    .argument("[shift...]", "move the clock by this much: +25h, -90m, 30d, 1d12h (d, h, m, s)")
    .description("show or move the clock of a running sandbox (rehearsals)")
    .option("--set <time>", "set the clock to this date and time (UTC unless a zone is given); it keeps ticking from there")
    .option("--frozen", "with --set: stop the clock there (time stands still until moved again)")
    .option("--reset", "back to real time")
    // A shift back ("-90m") looks like an option to commander: let it through as the argument, checked below.
    .allowUnknownOption()
    .addHelpText(
      "after",
      `
${RUNNING_SANDBOX_HELP}
The clock is the organization's: its records' times, the report windows and the Date header of its answers.
Prints the sandbox's now, whether it ticks or is frozen, and how far it is from real time; --json the clock as
GET /_sandbox/clock answers it. With no argument it only shows the clock.

Examples:
  shipctl sandbox clock
  shipctl sandbox clock +25h          # a day and an hour later: set 2 windows opened yesterday have closed
  shipctl sandbox clock -90m          # back an hour and a half
  shipctl sandbox clock --set "2026-03-01 09:00:00" --frozen
  shipctl sandbox clock --reset
`,
    );
  return command.action(verbAction(ctx, parseSandboxClock, run));
}

export function parseSandboxClock(args: string[], flags: ClockFlags): SandboxClockOptions {
  const unknown = args.find((a) => /^-(?!\d)/.test(a));
  if (unknown !== undefined) throw new UsageError(`unknown option '${unknown}'`);
  if (args.length > 1) throw new UsageError(`one shift at a time (got ${args.join(" ")})`);
  const shift = args[0];
  const given = [shift !== undefined, flags.set !== undefined, flags.reset === true].filter(Boolean).length;
  if (given > 1) throw new UsageError("give one of a shift (+25h), --set TIME or --reset");
  if (flags.frozen && flags.set === undefined) throw new UsageError("--frozen goes with --set TIME (where the clock stops)");
  if (shift !== undefined) return { action: "shift", ms: parseDuration(shift, "the shift", { signed: true }) };
  if (flags.set !== undefined) return { action: "set", at: sandboxMoment(flags.set, "--set"), frozen: flags.frozen === true };
  if (flags.reset) return { action: "reset" };
  return { action: "show" };
}

export async function runSandboxClock(options: SandboxClockOptions, deps: Deps): Promise<void> {
  const { withRunningSandbox } = await import("../../rehearsal/running-sandbox.js");
  const clock = await withRunningSandbox(deps, async (control) => {
    switch (options.action) {
      case "show":
        return control.clock();
      case "shift":
        return control.setClock({ advance_ms: options.ms });
      case "set":
        return control.setClock({ at: await momentText(options.at, control), ticking: !options.frozen });
      case "reset":
        return control.resetClock();
    }
  });
  if (deps.globals.json) return (await import("../../output/json.js")).printJson(deps.io, clock);
  const { formatSignedDuration } = await import("../../input/duration.js");
  const { formatTimestamp } = await import("../../output/time-format.js");
  const offset = clock.offset_ms === 0 ? "real time" : `${formatSignedDuration(clock.offset_ms)} from real time`;
  deps.io.out(`${formatTimestamp(clock.now)}\t${clock.mode === "frozen" ? "frozen" : "ticking"}\t${offset}\n`);
}
