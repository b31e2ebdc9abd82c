// Wiring of `shipctl demo`: the main workflow, run with the real commands against an in-process sandbox.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("demo")
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
    )
    .action(lazyAction(ctx, async () => {
      const { run } = await import("./run.js");
      return (deps, args, flags: { keep?: boolean }) => run(deps, args, flags, ctx.runShipctl);
    }));
}
