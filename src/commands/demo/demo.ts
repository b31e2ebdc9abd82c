// `shipctl demo`: its wiring, options and run. The walkthrough (demo/) runs the real commands against an in-process
// sandbox; it is loaded only when the command runs.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface DemoOptions {
  /** Keep the demo's config folder and results files, and print where they are. */
  keep: boolean;
}

/** The demo runs whole shipctl command lines, which only main() can: the context hands it over (see runDemo). */
export function demoCommand(ctx: CommandContext, run: VerbRun<DemoOptions> = (options, deps) => runDemo(options, deps, ctx.runShipctl), command = new Command("demo")): Command {
  command
    .description("walk through the main workflow against a throwaway in-process sandbox, showing each command")
    .option("--keep", "keep the demo's config folder and results files, and print where they are")
    .addHelpText(
      "after",
      `
Starts a sandbox on a free 127.0.0.1 port, logs in to it in a temporary config folder (your own profiles are
untouched), then runs: address verify, address add, shipment create --csv, list shipments, checkout, and a
condition report upload from a photo folder, printing each command line and what it printed.
Exits non-zero if any step does not end as expected.

Example:
  shipctl demo
  npm run demo
`,
    );
  return command.action(verbAction(ctx, (_args, flags: Partial<DemoOptions>) => ({ keep: flags.keep === true }), run));
}

/** `runShipctl` is main() itself (importing it here would make main -> program -> commands -> main a circle). */
export async function runDemo(options: DemoOptions, deps: Deps, runShipctl: CommandContext["runShipctl"]): Promise<number> {
  // --json is a global flag: the parse does not see it.
  if (deps.globals.json) {
    throw new UsageError("shipctl demo prints a transcript for people and has no JSON output", {
      hint: "Every command the demo runs takes --json; run them yourself against `shipctl sandbox`.",
    });
  }
  const { walkThroughDemo } = await import("../../demo/demo-walkthrough.js");
  return walkThroughDemo(deps, options, runShipctl);
}
