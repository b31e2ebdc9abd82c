// Where the values of a flag or an argument come from when the shell completes them. Declared once, on the option or
// argument itself where its command declares it (`completesWith(new Option("--status <name...>", ...), "statuses")`),
// so shell completion, which walks commander's tree, never keeps a second list of flags. An argument with commander's
// own `.choices()` needs nothing more: its choices are its values. Light: every command's wiring imports it.
import type { Argument, Option } from "commander";

/**
 * A fixed list; values looked up at TAB time in the contract or the local config (never the network); for `help`,
 * the words of a command (the subcommands of what the earlier words name) or one of these topics; or, for a flag that
 * takes a comma-separated list (`--fields id,title`), these names, each once.
 */
export type ValueSource =
  | readonly string[]
  | "statuses"
  | "services"
  | "countries"
  | "profiles"
  | { commandsOr: readonly string[] }
  | { commaList: readonly string[] };

const sources = new WeakMap<Option | Argument, ValueSource>();

export function completesWith<T extends Option | Argument>(target: T, source: ValueSource): T {
  sources.set(target, source);
  return target;
}

export function valueSourceOf(target: Option | Argument): ValueSource | undefined {
  return sources.get(target) ?? target.argChoices;
}
