// `shipctl help [topic...]`: its wiring, options and run. It shows the help of any command, which needs the whole
// command tree: the program this command belongs to (nouns get their verbs on first use: withVerbs).
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import type { Deps } from "../../deps.js";
import { ERROR_CODE_TABLE, EXIT_CODE_TABLE, UsageError } from "../../errors.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { withVerbs } from "../index.js";
import { ROUND_TRIP_HELP } from "./round-trip.js";

/** The topics `help` shows besides the commands' own help (completion offers them after `shipctl help`). */
export const HELP_TOPICS = ["exit-codes", "round-trip"] as const;

export interface HelpOptions {
  /** A command's words (`shipment create`), a topic (`exit-codes`, `round-trip`), or nothing for the program's own help. */
  topic: string[];
}

/** `run` replaces the default, which shows help from the program this command is added to. */
export function helpCommand(ctx: CommandContext, run?: VerbRun<HelpOptions>): Command {
  const command = new Command("help")
    .description("show help for a command, or a topic: `shipctl help exit-codes`, `shipctl help round-trip`")
    .addArgument(
      completesWith(new Argument("[topic...]", "a command (e.g. `shipment create`), `exit-codes`, or `round-trip` (the spreadsheet loop, worked)"), {
        commandsOr: HELP_TOPICS,
      }),
    );
  return command.action(verbAction(ctx, parseHelp, run ?? ((options, deps) => runHelp(options, deps, command.parent ?? command))));
}

export function parseHelp(args: string[]): HelpOptions {
  return { topic: args };
}

export async function runHelp(options: HelpOptions, deps: Deps, program: Command): Promise<void> {
  const { topic } = options;
  if (topic.join(" ") === "exit-codes") {
    deps.io.out(
      deps.globals.json ? `${JSON.stringify(EXIT_CODE_TABLE.map(([code, meaning]) => ({ code, meaning, error_codes: errorCodesOf(code) })))}\n` : exitCodesText(),
    );
    return;
  }
  if (topic.join(" ") === "round-trip") {
    deps.io.out(ROUND_TRIP_HELP);
    return;
  }
  let target = program;
  for (const word of topic) {
    const sub = (await withVerbs(target)).commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) throw new UsageError(`no command or help topic "${topic.join(" ")}"`, { hint: "Run `shipctl --help` for the list." });
    target = sub;
  }
  deps.io.out((await withVerbs(target)).helpInformation());
}

export function exitCodesText(): string {
  const lines = EXIT_CODE_TABLE.map(([code, text]) => {
    const names = errorCodesOf(code);
    return `  ${String(code).padStart(3)}  ${text}${names.length ? `\n       ${names.join(", ")}` : ""}`;
  });
  return (
    `Exit codes:\n${lines.join("\n")}\n\n` +
    'With --json a failure is on stdout too: {"error": {"code", "exit_code", "message", "hint", ...}}, with "code" one of\n' +
    "the names under its exit code above (README: Errors as JSON).\n"
  );
}

/** The --json error names (`code`) of an exit code. */
function errorCodesOf(exitCode: number): string[] {
  return ERROR_CODE_TABLE.filter(([, code]) => code === exitCode).map(([name]) => name);
}
