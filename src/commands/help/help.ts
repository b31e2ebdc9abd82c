// `shipctl help [topic...]`: its wiring, options and run. It shows the help of any command, which needs the whole
// command tree: the program this command belongs to (nouns get their verbs on first use: withVerbs). The topics it
// also shows are listed in topics.ts.
import { Argument, Command } from "commander";
import { completesWith } from "../../completion/value-source.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { printJson } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { withVerbs } from "../index.js";
import { commandName } from "../record-output.js";
import { findHelpTopic, HELP_TOPICS, helpTopicsList } from "./topics.js";

export interface HelpOptions {
  /** A command's words (`shipment create`), a topic (`exit-codes`, `environment`), or nothing for the program's own help. */
  topic: string[];
}

const TOPIC_NAMES = HELP_TOPICS.map((t) => t.name).join(", ");

/** `run` replaces the default, which shows help from the program this command is added to. */
export function helpCommand(ctx: CommandContext, run?: VerbRun<HelpOptions>): Command {
  const command = new Command("help")
    .description("show help for a command, or a help topic (listed below)")
    .addArgument(
      completesWith(new Argument("[topic...]", `a command (e.g. \`shipment create\`), or a topic: ${TOPIC_NAMES}`), {
        commandsOr: HELP_TOPICS.map((t) => t.name),
      }),
    )
    .addHelpText(
      "after",
      () =>
        `\n${helpTopicsList()}\nWith --json, \`shipctl help\` lists the topics, and a topic that is a table prints it.\n` +
        "\nExamples:\n  shipctl help shipment create\n  shipctl help exit-codes --json\n",
    );
  return command.action(verbAction(ctx, (args) => ({ topic: args }), run ?? ((options, deps) => runHelp(options, deps, command.parent ?? command))));
}

export async function runHelp(options: HelpOptions, deps: Deps, program: Command): Promise<void> {
  const { topic } = options;
  const json = deps.globals.json;
  const named = findHelpTopic(topic.join(" "));
  if (named) {
    if (!json) deps.io.out(await named.text());
    else if (named.json) printJson(deps.io, await named.json());
    else throw noJson(`help ${named.name}`);
    return;
  }
  // `json`: whether `help NAME --json` prints the topic as a table.
  if (json && topic.length === 0) return printJson(deps.io, { topics: HELP_TOPICS.map((t) => ({ name: t.name, summary: t.summary, json: t.json !== undefined })) });
  let target = program;
  for (const word of topic) {
    const sub = (await withVerbs(target)).commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) throw unknownTopic(topic, target);
    target = sub;
  }
  if (json) throw noJson(`help ${topic.join(" ")}`);
  // As `--help` prints it, with the text added after it (the program's list of topics, a verb's examples), on the
  // stdout commander is given (commands/program.ts).
  (await withVerbs(target)).outputHelp();
}

/** What there is to ask for, where the words stopped matching: the topics (at the top) and the commands there. */
function unknownTopic(topic: string[], where: Command): UsageError {
  const top = where.parent === null;
  const commands = where.commands.map((c) => c.name()).join(", ");
  const path = top ? "" : ` of ${commandName(where)}`;
  return new UsageError(`no command or help topic "${topic.join(" ")}"`, {
    hint: `${top ? `Help topics: ${TOPIC_NAMES}.\n` : ""}Commands${path}: ${commands}.`,
  });
}

function noJson(what: string): UsageError {
  return new UsageError(`shipctl ${what} is text for people and has no JSON output`, {
    hint: `With --json: \`shipctl help\` lists the topics; ${HELP_TOPICS.filter((t) => t.json).map((t) => `\`help ${t.name}\``).join(" and ")} print their tables.`,
  });
}
