// A verb run whole in a unit test: the command line goes through the verb's own wiring (its parse, and commander's
// checks before it), then its real run with the deps the test built. What the binary does, minus the process.
import type { Command } from "commander";
import type { CommandContext } from "../../src/commands/action.js";
import type { Deps } from "../../src/deps.js";

/** The exit code the verb `make` builds gives for `argv` (what it throws, it throws). */
export async function runVerb(make: (ctx: CommandContext) => Command, argv: string[], deps: Deps): Promise<number> {
  let exitCode = 0;
  const ctx: CommandContext = {
    depsFor: () => deps,
    setExitCode: (code) => {
      exitCode = code;
    },
    runShipctl: () => Promise.reject(new Error("runVerb runs one verb, not whole command lines")),
  };
  const command = make(ctx);
  command.exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  await command.parseAsync(argv, { from: "user" });
  return exitCode;
}
