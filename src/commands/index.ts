// Every noun's wiring, in the order `shipctl --help` lists them. Wiring modules only define flags and help;
// their logic is imported lazily when a command runs.
import type { Command } from "commander";
import type { CommandContext } from "./action.js";

type Register = (program: Command, ctx: CommandContext) => void;

const nouns: Register[] = [];

export function registerCommands(program: Command, ctx: CommandContext): void {
  for (const register of nouns) register(program, ctx);
}
