// Glue between commander and a command's logic: the logic module is imported only when the command runs
// (so `--help` stays instant), receives Deps plus the parsed arguments, and returns an exit code (or nothing for 0).
import type { Command } from "commander";
import type { Deps } from "../deps.js";
import type { ExitCode } from "../errors.js";

export type ActionResult = ExitCode | number | void;

/** Set by main(): turns the invoked command into Deps (global flags resolved) and records the exit code. */
export interface CommandContext {
  depsFor(command: Command): Deps;
  setExitCode(code: number): void;
}

/**
 * Wires `.action()` to a lazily imported logic function.
 * `run(deps, args, flags)`: args are the positional arguments, flags the command's own options.
 */
export function lazyAction<F extends Record<string, unknown>>(
  ctx: CommandContext,
  load: () => Promise<(deps: Deps, args: string[], flags: F) => Promise<ActionResult>>,
) {
  return async (...received: unknown[]) => {
    const command = received[received.length - 1] as Command;
    const flags = command.opts() as F;
    const args = command.processedArgs.flat().filter((a): a is string => typeof a === "string");
    const run = await load();
    const code = await run(ctx.depsFor(command), args, flags);
    ctx.setExitCode(typeof code === "number" ? code : 0);
  };
}
