// Every command of the top level, in the order `shipctl --help` lists them: the nouns that group verbs, and the verbs
// of the top level. The top-level help shows one line for each (its name, "[options]" when it has flags, its
// arguments, and its description), so that line is declared here, and the rest is built onto the command only when
// the command line reaches it, or `shipctl help` or a shell's TAB names it: a noun's verbs (their modules), a verb's
// arguments, flags and run. `shipctl --help`, and any command, then skip loading and building all the others.
// test/unit/commands/top-level.test.ts holds each declared line equal to the one its built command gives.
import { Help, type Command } from "commander";
import type { CommandContext } from "./action.js";

interface TopLevelCommand {
  name: string;
  /** What the top-level help shows after the name: "[options]" when the command has flags, then its arguments. */
  usage?: string;
  description: string;
  /** Adds the rest onto the command: a noun's verbs, or a verb's arguments, flags and run. */
  build(command: Command, ctx: CommandContext): Promise<unknown>;
}

const topLevel: TopLevelCommand[] = [
  {
    name: "address",
    description: "verify, store, update and read addresses",
    build: async (noun, ctx) => (await import("./address/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "shipment",
    description: "create, update and read shipments",
    build: async (noun, ctx) => (await import("./shipment/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "list",
    description: "list shipments or addresses, a page at a time or all of them",
    build: async (noun, ctx) => (await import("./list/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "csv",
    description: "how CSV files are read: the column mapping saved for a sheet's own headers",
    build: async (noun, ctx) => (await import("./csv/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "checkout",
    usage: "[options] [id...]",
    description: "price shipments and pay for them with the organization's payment method",
    build: async (command, ctx) => (await import("./checkout/checkout.js")).checkoutCommand(ctx, undefined, command),
  },
  {
    name: "report",
    description: "upload condition reports (12 photos per set) from photo folders",
    build: async (noun, ctx) => (await import("./report/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "due",
    usage: "[options]",
    description: "what needs a person, most urgent first: open report windows, unpaid drafts, windows missed lately",
    build: async (command, ctx) => (await import("./due/due.js")).dueCommand(ctx, undefined, command),
  },
  {
    name: "watch",
    usage: "[options] [id...]",
    description: "report shipments' status changes as they happen (or since the last watch)",
    build: async (command, ctx) => (await import("./watch/watch.js")).watchCommand(ctx, undefined, command),
  },
  {
    name: "mcp",
    usage: "[options]",
    description: "serve shipctl's operations to an AI assistant over the Model Context Protocol (stdio)",
    build: async (command, ctx) => (await import("./mcp/mcp.js")).mcpCommand(ctx, undefined, command),
  },
  {
    name: "login",
    usage: "[options]",
    description: "save the service URL and an access token in a profile, after checking the token",
    build: async (command, ctx) => (await import("./auth/login.js")).loginCommand(ctx, undefined, command),
  },
  {
    name: "logout",
    description: "remove the saved token of a profile (its base URL is kept)",
    build: async (command, ctx) => (await import("./auth/logout.js")).logoutCommand(ctx, undefined, command),
  },
  {
    name: "whoami",
    usage: "[options]",
    description: "show the profile in use and why, its base URL, the token (masked), and whether the token works",
    build: async (command, ctx) => (await import("./auth/status.js")).whoamiCommand(ctx, undefined, command),
  },
  {
    name: "auth",
    description: "who you are to the service: auth status (the token in use, and whether it works); login, logout",
    build: async (noun, ctx) => (await import("./auth/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "profile",
    description: "list the saved profiles, switch the current one, remove one",
    build: async (noun, ctx) => (await import("./profile/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "ledger",
    description: "the organization's ledger of writes that must not repeat: status, push to a shared one, unlock",
    build: async (noun, ctx) => (await import("./ledger/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "config",
    description: "show and change saved settings: profiles, base URL, Country/Service tables",
    build: async (noun, ctx) => (await import("./config/index.js")).registerVerbs(noun, ctx),
  },
  {
    name: "api",
    usage: "[options] <method> <path>",
    description: "send any request to the service with the saved token, like `gh api` (for what no command does)",
    build: async (command, ctx) => (await import("./api/api.js")).apiCommand(ctx, undefined, command),
  },
  {
    name: "completion",
    usage: "<shell>",
    description: "print the shell completion script for bash, zsh, fish or PowerShell",
    build: async (command, ctx) => (await import("./completion/completion.js")).completionCommand(ctx, undefined, command),
  },
  {
    name: "sandbox",
    usage: "[options]",
    description: "run a local sandbox of the shipping service (for tests, the demo and rehearsals)",
    build: async (command, ctx) => (await import("./sandbox/sandbox.js")).sandboxCommand(ctx, undefined, command),
  },
  {
    name: "demo",
    usage: "[options]",
    description: "walk through the main workflow against a throwaway in-process sandbox, showing each command",
    build: async (command, ctx) => (await import("./demo/demo.js")).demoCommand(ctx, undefined, command),
  },
  {
    name: "version",
    description: "show the version, the commit and date it was built from, and the Node and platform running it",
    build: async (command, ctx) => (await import("./version/version.js")).versionCommand(ctx, undefined, command),
  },
];

/** Commands not built yet, each with the one load that builds it. */
const toBuild = new WeakMap<Command, () => Promise<void>>();
/** The line the top-level help shows for a command not built yet: the one declared for it. */
const declaredTerms = new WeakMap<Command, string>();

export function registerCommands(program: Command, ctx: CommandContext): void {
  // Set before the commands are added: each takes the program's help settings as they are then.
  program.configureHelp({
    ...program.configureHelp(),
    subcommandTerm(this: Help, command: Command) {
      return declaredTerms.get(command) ?? Help.prototype.subcommandTerm.call(this, command);
    },
  });
  for (const entry of topLevel) {
    const command = program.command(entry.name).description(entry.description);
    declaredTerms.set(command, entry.usage ? `${entry.name} ${entry.usage}` : entry.name);
    let built: Promise<void> | undefined;
    toBuild.set(command, () => (built ??= entry.build(command, ctx).then(() => void declaredTerms.delete(command))));
  }
  // Runs before commander hands the rest of the command line to a command: it is built when it parses.
  program.hook("preSubcommand", (_program, command) => withVerbs(command).then(() => undefined));
}

/** The command built, with all its subcommands (a top-level command is built on first use). */
export async function withVerbs(command: Command): Promise<Command> {
  await toBuild.get(command)?.();
  return command;
}
