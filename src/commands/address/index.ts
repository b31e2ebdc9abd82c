// Wiring of the `address` command(s): flags and help here, logic in sibling files imported lazily.
import type { Command } from "commander";
import type { CommandContext } from "../action.js";

export function register(_program: Command, _ctx: CommandContext): void {
  // Filled in by the work on this command.
}
