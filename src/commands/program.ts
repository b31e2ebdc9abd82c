// The commander program: global flags, every noun's wiring, and the `help` command (commands/help/help.ts).
import { Command, Option } from "commander";
import type { BaseDeps } from "../deps.js";
import { registerCommands } from "./index.js";
import { addVerbs, type CommandContext } from "./action.js";
import { helpCommand } from "./help/help.js";
import { helpTopicsList } from "./help/topics.js";
import { completesWith } from "../completion/value-source.js";

export { CommanderError } from "commander";

export function buildProgram(base: BaseDeps, ctx: CommandContext, version: string): Command {
  const program = new Command("shipctl")
    .description("Ship artwork from the command line: addresses, shipments, condition reports and checkout.")
    .version(version, "-V, --version", "print the version")
    .option("--json", "print one JSON document on stdout (for scripts); a failure is in it as {\"error\": {code, exit_code, message, hint}}")
    .option("--query <expr>", "JMESPath over the JSON printed (--json; with --ndjson, each line), e.g. 'shipments[].id': `shipctl help formatting`")
    .option("-r, --raw-output", "with --query: a string result printed without quotes, an array of strings one a line (as jq -r)")
    .addOption(completesWith(new Option("--profile <name>", "use this saved profile (env SHIPCTL_PROFILE)"), "profiles"))
    .option("--base-url <url>", "service URL for this run (env SHIPCTL_BASE_URL)")
    .option("--debug", "log each request (method, URL, status, time, retries) to stderr; the token is redacted")
    .option("--no-color", "no colours (also NO_COLOR=1)")
    .option("--no-input", "never prompt; fail naming the missing flag instead")
    .option("-q, --quiet", "on stderr, only errors and the one-line summary (prompts still ask; stdout unchanged)")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .exitOverride();
  // commander's own help width and colour check ask process.stdout whether it is a terminal, which has Node build
  // that stream; the answer is the same from io, which knows a pipe or a file without it.
  const commanderOutput = program.configureOutput();
  program.configureOutput({
    writeOut: (s) => base.io.out(s),
    writeErr: (s) => base.io.err(s),
    // undefined for a non-terminal, as commander's own default returns (its type says number).
    getOutHelpWidth: (() => (base.io.stdoutIsTTY ? commanderOutput.getOutHelpWidth?.() : undefined)) as () => number,
    // Without colours commander strips colour codes from the help, which holds none; so a pipe needs no answer but no.
    getOutHasColors: () => base.io.stdoutIsTTY && Boolean(commanderOutput.getOutHasColors?.()),
  });
  program.helpCommand(false);
  registerCommands(program, ctx);
  addVerbs(program, helpCommand(ctx));
  program.addHelpText("after", `\n${helpTopicsList()}\nDocs: README.md.\n`);
  return program;
}
