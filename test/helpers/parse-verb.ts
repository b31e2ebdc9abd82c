// Parse-only tests of a verb's wiring, as the GitHub CLI does them: the command is built with a `run` that only
// records what it was given, so a command line's flags and arguments are checked against the typed options without
// running anything (no request, no file read).
import type { Command } from "commander";
import type { CommandContext, VerbRun } from "../../src/commands/action.js";
import type { Deps } from "../../src/deps.js";

/** The options `argv` gives the verb `make` builds (or the error its parsing throws). */
export async function parsedOptions<O>(make: (ctx: CommandContext, run: VerbRun<O>) => Command, argv: string[]): Promise<O> {
  let got: { options: O } | undefined;
  const ctx: CommandContext = { depsFor: () => ({}) as Deps, setExitCode: () => undefined, runShipctl: () => Promise.reject(new Error("not in a parse-only test")) };
  const command = make(ctx, async (options) => {
    got = { options };
  });
  command.exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  await command.parseAsync(argv, { from: "user" });
  if (!got) throw new Error("the verb's run was not called");
  return got.options;
}
