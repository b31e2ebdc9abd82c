// The verbs of `shipctl auth` (the noun itself is declared in ../index.ts): `status`, and `login` and `logout`, which
// are also top-level verbs (`shipctl login`); both spellings run the same command.
import { authStatusCommand } from "./status.js";
import { loginCommand } from "./login.js";
import { logoutCommand } from "./logout.js";

export const verbs = [authStatusCommand, loginCommand, logoutCommand];
export const helpAfter = "\nExamples:\n  shipctl auth status\n  shipctl whoami --offline\n  shipctl auth login --profile staging\n";
