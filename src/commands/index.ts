// Every command of the top level, in the order `shipctl --help` lists them: the nouns that group verbs, and the verbs
// of the top level. The top-level help shows one line for each (its name, "[options]" when it has flags, its
// arguments, and its description), so that line is declared here, and the rest is built onto the command only when
// the command line reaches it, or `shipctl help` or a shell's TAB names it: a noun's verbs (their modules), a verb's
// arguments, flags and run. `shipctl --help`, and any command, then skip loading and building all the others.
// test/unit/commands/top-level.test.ts holds each declared line equal to the one its built command gives.
import { Help, type Command } from "commander";
import { addVerbs, type CommandContext } from "./action.js";

interface TopLevelCommand {
  name: string;
  /** What the top-level help shows after the name: "[options]" when the command has flags, then its arguments. */
  usage?: string;
  description: string;
  /** Adds the rest onto the command: a noun's verbs, or a verb's arguments, flags and run. */
  build(command: Command, ctx: CommandContext): Promise<unknown>;
}

/** A noun's folder's index.ts: its verbs, in the order its help lists them, and the text its help shows after them. */
interface NounModule {
  verbs: ReadonlyArray<(ctx: CommandContext) => Command>;
  helpAfter?: string;
}

/** A noun: its verbs are added as `noun.command(name)` would (the program's help layout, output and exit handling). */
function noun(name: string, description: string, load: () => Promise<NounModule>): TopLevelCommand {
  return {
    name,
    description,
    build: async (command, ctx) => {
      const { verbs, helpAfter } = await load();
      if (helpAfter) command.addHelpText("after", helpAfter);
      addVerbs(command, ...verbs.map((verb) => verb(ctx)));
    },
  };
}

type VerbBuilder = (ctx: CommandContext, run: undefined, command: Command) => Command;

/** A verb of the top level: its module's builder adds its arguments, flags and run onto the command declared here. */
function verb(name: string, usage: string | undefined, description: string, load: () => Promise<VerbBuilder>): TopLevelCommand {
  return { name, usage, description, build: async (command, ctx) => (await load())(ctx, undefined, command) };
}

const topLevel: TopLevelCommand[] = [
  noun("address", "verify, store, update and read addresses", () => import("./address/index.js")),
  noun("shipment", "create, update and read shipments", () => import("./shipment/index.js")),
  noun("list", "list shipments or addresses, a page at a time or all of them", () => import("./list/index.js")),
  noun("csv", "how CSV files are read: the column mapping saved for a sheet's own headers", () => import("./csv/index.js")),
  verb("checkout", "[options] [id...]", "price shipments and pay for them with the organization's payment method",
    async () => (await import("./checkout/checkout.js")).checkoutCommand),
  noun("report", "upload condition reports (12 photos per set) from photo folders", () => import("./report/index.js")),
  verb("due", "[options]", "what needs a person, most urgent first: open report windows, unpaid drafts, windows missed lately",
    async () => (await import("./due/due.js")).dueCommand),
  verb("watch", "[options] [id...]", "report shipments' status changes as they happen (or since the last watch)",
    async () => (await import("./watch/watch.js")).watchCommand),
  verb("mcp", "[options]", "serve shipctl's operations to an AI assistant over the Model Context Protocol (stdio)",
    async () => (await import("./mcp/mcp.js")).mcpCommand),
  verb("login", "[options]", "save the service URL and an access token in a profile, after checking the token",
    async () => (await import("./auth/login.js")).loginCommand),
  verb("logout", undefined, "remove the saved token of a profile (its base URL is kept)",
    async () => (await import("./auth/logout.js")).logoutCommand),
  verb("whoami", "[options]", "show the profile in use and why, its base URL, the token (masked), and whether the token works",
    async () => (await import("./auth/status.js")).authStatusCommand),
  noun("auth", "who you are to the service: auth status (the token in use, and whether it works); login, logout", () => import("./auth/index.js")),
  noun("profile", "list the saved profiles, switch the current one, remove one", () => import("./profile/index.js")),
  noun("ledger", "the organization's ledger of writes that must not repeat: status, push to a shared one, unlock", () => import("./ledger/index.js")),
  noun("config", "show and change saved settings: profiles, base URL, Country/Service tables", () => import("./config/index.js")),
  verb("api", "[options] <method> <path>", "send any request to the service with the saved token, like `gh api` (for what no command does)",
    async () => (await import("./api/api.js")).apiCommand),
  verb("completion", "<shell>", "print the shell completion script for bash, zsh, fish or PowerShell",
    async () => (await import("./completion/completion.js")).completionCommand),
  verb("sandbox", "[options]", "run a local sandbox of the shipping service (for tests, the demo and rehearsals)",
    async () => (await import("./sandbox/sandbox.js")).sandboxCommand),
  verb("demo", "[options]", "walk through the main workflow against a throwaway in-process sandbox, showing each command",
    async () => (await import("./demo/demo.js")).demoCommand),
  verb("version", undefined, "show the version, the commit and date it was built from, and the Node and platform running it",
    async () => (await import("./version/version.js")).versionCommand),
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
