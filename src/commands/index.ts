// Every noun, and every verb of the top level, in the order `shipctl --help` lists them. Verb files only define flags
// and help (and a parse); their logic is imported when a command runs.
// The top-level help shows each noun's name and description, nothing of its verbs. So the nouns that group verbs are
// declared here, and their verbs (with the modules defining them) are added only when the command line reaches the
// noun, or `shipctl help` names it: `shipctl --help`, and a command of another noun, skip loading and building them.
// Top-level verbs (checkout, login...) show their arguments and flags there, so they are built at once.
import type { Command } from "commander";
import { addVerb, type CommandContext } from "./action.js";
import { checkoutCommand } from "./checkout/checkout.js";
import { loginCommand } from "./auth/login.js";
import { logoutCommand } from "./auth/logout.js";
import { whoamiCommand } from "./auth/status.js";
import { sandboxCommand } from "./sandbox/sandbox.js";
import { demoCommand } from "./demo/demo.js";
import { dueCommand } from "./due/due.js";
import { watchCommand } from "./watch/watch.js";
import { mcpCommand } from "./mcp/mcp.js";
import { apiCommand } from "./api/api.js";
import { versionCommand } from "./version/version.js";
import { completionCommand } from "./completion/completion.js";

/** A noun whose verbs are wired by its own module. */
interface VerbGroup {
  name: string;
  description: string;
  wiring: () => Promise<{ registerVerbs(noun: Command, ctx: CommandContext): void }>;
}

/** A verb at the top level, built by its own file. */
type TopLevelVerb = (ctx: CommandContext) => Command;

const nouns: Array<VerbGroup | TopLevelVerb> = [
  { name: "address", description: "verify, store, update and read addresses", wiring: () => import("./address/index.js") },
  { name: "shipment", description: "create, update and read shipments", wiring: () => import("./shipment/index.js") },
  {
    name: "list",
    description: "list shipments or addresses, a page at a time or all of them",
    wiring: () => import("./list/index.js"),
  },
  checkoutCommand,
  {
    name: "report",
    description: "upload condition reports (12 photos per set) from photo folders",
    wiring: () => import("./report/index.js"),
  },
  dueCommand,
  watchCommand,
  mcpCommand,
  loginCommand,
  logoutCommand,
  whoamiCommand,
  {
    name: "auth",
    description: "who you are to the service: auth status (the token in use, and whether it works); login, logout",
    wiring: () => import("./auth/index.js"),
  },
  {
    name: "profile",
    description: "list the saved profiles, switch the current one, remove one",
    wiring: () => import("./profile/index.js"),
  },
  {
    name: "ledger",
    description: "the organization's ledger of writes that must not repeat: status, push to a shared one, unlock",
    wiring: () => import("./ledger/index.js"),
  },
  {
    name: "config",
    description: "show and change saved settings: profiles, base URL, Country/Service tables",
    wiring: () => import("./config/index.js"),
  },
  apiCommand,
  completionCommand,
  sandboxCommand,
  demoCommand,
  versionCommand,
];

/** Nouns whose verbs are not added yet, each with the one load that adds them. */
const verbsToAdd = new WeakMap<Command, () => Promise<void>>();

export function registerCommands(program: Command, ctx: CommandContext): void {
  for (const noun of nouns) {
    if (typeof noun === "function") {
      addVerb(program, noun(ctx));
      continue;
    }
    const command = program.command(noun.name).description(noun.description);
    let added: Promise<void> | undefined;
    verbsToAdd.set(command, () => (added ??= noun.wiring().then((m) => m.registerVerbs(command, ctx))));
  }
  // Runs before commander hands the rest of the command line to a noun: its verbs are there when it parses.
  program.hook("preSubcommand", (_program, noun) => withVerbs(noun).then(() => undefined));
}

/** The command with all its subcommands (a noun's verbs are added on first use). */
export async function withVerbs(command: Command): Promise<Command> {
  await verbsToAdd.get(command)?.();
  return command;
}
