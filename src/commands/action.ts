// Glue between commander and a verb: commander's arguments and flags become the verb's typed options, and its run
// receives them with Deps and returns an exit code (or nothing for 0). A verb's run imports its heavy modules itself,
// when it runs, so building the command tree for `--help` stays light.
import type { Command } from "commander";
import type { BaseDeps, Deps } from "../deps.js";
import { QueryFailedError, type ExitCode } from "../errors.js";
import { shapeRun } from "./record-output.js";

export type ActionResult = ExitCode | number | void;

/** Set by main(): turns the invoked command into Deps (global flags resolved) and records the exit code. */
export interface CommandContext {
  depsFor(command: Command): Deps;
  setExitCode(code: number): void;
  /** Runs a whole shipctl command line in this process, as the binary would (the demo's steps). */
  runShipctl(argv: string[], base: BaseDeps): Promise<number>;
}

/** A verb's logic: its typed options and the run's deps; returns an exit code (or nothing for 0). */
export type VerbRun<O> = (options: O, deps: Deps) => Promise<ActionResult>;

/** The options of a verb with no arguments or flags of its own (--json, --profile... are global). */
export type NoOptions = Record<string, never>;
export const noOptions = (): NoOptions => ({});

/**
 * Wires a verb's `.action()`: commander's positional arguments and flags become the verb's typed options through
 * `parse` (it only reads and checks the command line, and throws UsageError for what is wrong there), then `run`
 * does the work. A test passes its own `run` to see the options a command line gives, without running anything.
 */
export function verbAction<F, O>(ctx: CommandContext, parse: (args: string[], flags: F) => O, run: VerbRun<O>) {
  return async (...received: unknown[]): Promise<void> => {
    const command = received[received.length - 1] as Command;
    const args = command.processedArgs.flat().filter((a): a is string => typeof a === "string");
    // Deps first: an error the parse throws is then shown as the global flags ask (--no-color).
    const deps = ctx.depsFor(command);
    const options = parse(args, command.opts() as F);
    // --fields and --query: checked now, before anything is sent; the run prints through their shaped stdout.
    const shaped = await shapeRun(command, deps);
    const unshapedNote = (why: string) => deps.io.alert(`Note: output printed as it was, not shaped by --fields/--query: ${why}.\n`);
    let code: ActionResult;
    try {
      code = await run(options, shaped?.deps ?? deps);
    } catch (err) {
      const why = shaped?.end(false);
      if (why) unshapedNote(why);
      throw err;
    }
    const exitCode = code ?? 0;
    const why = shaped?.end(exitCode === 0);
    // A run that did its work but whose output could not be shaped must not pass for one that printed what was asked.
    if (why && exitCode === 0) throw new QueryFailedError(`--query could not be applied (the output was printed as it was): ${why}`);
    if (why) unshapedNote(why);
    ctx.setExitCode(exitCode);
  };
}

/**
 * Adds verbs built on their own (`new Command(...)`) under their noun or the program, with the settings a command made
 * by `parent.command()` inherits: output through io, exit codes instead of process.exit, help layout, help after errors.
 */
export function addVerbs(parent: Command, ...verbs: Command[]): void {
  for (const verb of verbs) parent.addCommand(inherit(verb, parent));
}

/** A verb built with verbs of its own (`sandbox clock`) before it had a parent: they inherit through it too. */
function inherit(verb: Command, parent: Command): Command {
  verb.copyInheritedSettings(parent);
  for (const sub of verb.commands) inherit(sub, verb);
  return verb;
}
