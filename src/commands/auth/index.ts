// The verbs of `shipctl auth` (the noun itself is declared in ../index.ts): `status`, and `login` and `logout`, which
// are also top-level verbs (`shipctl login`); both spellings run the same command.
import type { Command } from "commander";
import { addVerbs, type CommandContext } from "../action.js";
import { authStatusCommand } from "./status.js";
import { loginCommand } from "./login.js";
import { logoutCommand } from "./logout.js";

export function registerVerbs(auth: Command, ctx: CommandContext): void {
  auth.addHelpText("after", "\nExamples:\n  shipctl auth status\n  shipctl whoami --offline\n  shipctl auth login --profile staging\n");
  addVerbs(auth, authStatusCommand(ctx), loginCommand(ctx), logoutCommand(ctx));
}
