// What the shell may put where the cursor is: the words so far are walked through commander's own tree the way
// commander parses them (subcommands, flags taking a value, variadic flags, `--`), and the last word is completed with
// the subcommands, the flags (the command's own and its parents'), or the values of the flag or argument it belongs
// to (value-source.ts). Nothing here knows shipctl's commands: a flag added to a verb completes the day it is added.
import type { Argument, Command, Option } from "commander";
import { valueSourceOf, type ValueSource } from "./value-source.js";

export interface Candidate {
  value: string;
  /** Shown beside the value by zsh, fish and PowerShell; bash shows values only. */
  description?: string;
}

export interface Completion {
  candidates: Candidate[];
  /** Nothing better is known for this word (a path, an id, free text): the shell may offer file names. */
  files: boolean;
}

export type LookedUpValues = Extract<ValueSource, string>;

export interface CompletionContext {
  /** The command with all its subcommands (a noun's verbs are added on first use: commands/index.ts withVerbs). */
  expand(command: Command): Promise<Command>;
  /** Values looked up at TAB time; `given` holds the values of the flags already on the line, by attribute name. */
  lookup(source: LookedUpValues, given: Readonly<Record<string, string>>): Candidate[];
}

/** `words`: the words after the program's name, the last one being the word under the cursor ("" for a new one). */
export async function completeWords(root: Command, words: readonly string[], ctx: CompletionContext): Promise<Completion> {
  const current = words.at(-1) ?? "";
  let command = await ctx.expand(root);
  const chain = [command];
  const given: Record<string, string> = {};
  const positional: string[] = [];
  let pending: Option | undefined;
  let variadic: Option | undefined;
  let onlyArguments = false;

  for (const word of words.slice(0, -1)) {
    if (pending && word === "=") {
      // bash splits `--service=Ex` at the `=` (COMP_WORDBREAKS): the value is the next word.
      continue;
    } else if (pending) {
      given[pending.attributeName()] = word;
      variadic = pending.variadic ? pending : undefined;
      pending = undefined;
    } else if (!onlyArguments && word === "--") {
      onlyArguments = true;
      variadic = undefined;
    } else if (!onlyArguments && word.startsWith("-") && word !== "-") {
      variadic = undefined;
      const [flag = word, value] = splitOnce(word, "=");
      const option = optionsOf(chain).find((o) => o.long === flag || o.short === flag);
      if (option && value !== undefined) given[option.attributeName()] = value;
      else if (option && (option.required || option.optional)) pending = option;
    } else if (!variadic) {
      const sub = positional.length === 0 ? subcommandsOf(command).find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
      if (sub) {
        command = await ctx.expand(sub);
        chain.push(command);
      } else positional.push(word);
    }
  }

  if (pending) return values(pending, [], ctx, given, current);
  if (!onlyArguments && current.startsWith("--") && current.includes("=")) {
    // zsh, fish and PowerShell keep `--service=Ex` as one word: its values, each written after the flag.
    const [flag = current, typed = ""] = splitOnce(current, "=");
    const option = optionsOf(chain).find((o) => o.long === flag && (o.required || o.optional));
    if (!option) return { candidates: [], files: false };
    const answer = await values(option, [], ctx, given, typed);
    return { candidates: answer.candidates.map((c) => ({ ...c, value: `${flag}=${c.value}` })), files: false };
  }
  if (!onlyArguments && current.startsWith("-")) return offered(flags(chain, words.slice(0, -1)), current);
  if (variadic) return values(variadic, [], ctx, given, current);
  const subcommands = positional.length === 0 ? subcommandsOf(command) : [];
  if (subcommands.length > 0) {
    return offered(subcommands.map((c) => ({ value: c.name(), description: brief(c.description()) })), current);
  }
  const args = command.registeredArguments;
  const last = args.at(-1);
  const argument = args[positional.length] ?? (last?.variadic ? last : undefined);
  if (!argument) return { candidates: [], files: false };
  return values(argument, positional.slice(args.indexOf(argument)), ctx, given, current, root);
}

/** The values of a flag or an argument; `earlier`: this (variadic) argument's words already given. */
async function values(
  target: Option | Argument,
  earlier: readonly string[],
  ctx: CompletionContext,
  given: Readonly<Record<string, string>>,
  current: string,
  root?: Command,
): Promise<Completion> {
  const source = valueSourceOf(target);
  if (source === undefined) return { candidates: [], files: true };
  if (typeof source === "string") return offered(ctx.lookup(source, given), current);
  if ("commandsOr" in source) return offered(await commandWords(root, earlier, source.commandsOr, ctx), current);
  if ("commaList" in source) return offered(listed(source.commaList, current), current);
  return offered(source.map((value) => ({ value })), current);
}

/** For `help`: the subcommands of the command the earlier words name, and at the start the topics too. */
async function commandWords(root: Command | undefined, earlier: readonly string[], topics: readonly string[], ctx: CompletionContext): Promise<Candidate[]> {
  let command = root && (await ctx.expand(root));
  for (const word of earlier) {
    const sub = command && subcommandsOf(command).find((c) => c.name() === word);
    command = sub && (await ctx.expand(sub));
  }
  const words = command ? subcommandsOf(command).map((c) => ({ value: c.name(), description: brief(c.description()) })) : [];
  return earlier.length === 0 ? [...words, ...topics.map((value) => ({ value, description: "help topic" }))] : words;
}

/** For a comma-separated list: what is typed up to its last comma, followed by each name not in it yet. */
function listed(names: readonly string[], current: string): Candidate[] {
  const done = current.slice(0, current.lastIndexOf(",") + 1);
  const taken = new Set(done.split(","));
  return names.filter((name) => !taken.has(name)).map((name) => ({ value: `${done}${name}` }));
}

/** Long flags of the command and its parents, less those already given once (a variadic or repeatable one stays). */
function flags(chain: readonly Command[], before: readonly string[]): Candidate[] {
  const used = new Set(before.map((w) => splitOnce(w, "=")[0]));
  return optionsOf(chain)
    .filter((o) => o.long !== undefined && (o.variadic || !used.has(o.long)))
    .map((o) => ({ value: o.long!, description: brief(o.description) }));
}

/** The visible options of each command of the chain, innermost first (commander reads a parent's flags anywhere). */
function optionsOf(chain: readonly Command[]): Option[] {
  const seen = new Set<string>();
  return [...chain].reverse().flatMap((c) => c.createHelp().visibleOptions(c)).filter((o) => {
    const key = o.long ?? o.short ?? o.flags;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function subcommandsOf(command: Command): Command[] {
  return command.createHelp().visibleCommands(command);
}

/** The values starting with the word as typed; if none, those starting with it in another case (dr -> Draft). */
function offered(candidates: readonly Candidate[], current: string): Completion {
  const exact = candidates.filter((c) => c.value.startsWith(current));
  const lower = current.toLowerCase();
  const found = exact.length > 0 ? exact : candidates.filter((c) => c.value.toLowerCase().startsWith(lower));
  return { candidates: found, files: false };
}

/** A description's first clause, short enough for one line of a completion menu. */
function brief(text: string): string {
  const clause = text.split(/; |\n/)[0]!.trim();
  return clause.length <= 72 ? clause : `${clause.slice(0, clause.lastIndexOf(" ", 71))}…`;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
