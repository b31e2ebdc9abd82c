// Builds the program, runs it, and maps whatever escapes to an exit code and a message on stderr.
// main() never exits the process: bin/shipctl.js sets process.exitCode from what it returns.
import { Command, CommanderError } from "commander";
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Deps, type GlobalOptions } from "./deps.js";
import { CliError, EXIT_CODE_TABLE, ExitCode, UsageError, exitCodeFor } from "./errors.js";
import { registerCommands } from "./commands/index.js";
import type { CommandContext } from "./commands/action.js";
import { createTheme, colorEnabled } from "./output/theme.js";

export { systemDeps } from "./deps.js";

export async function main(argv: string[], base: BaseDeps): Promise<number> {
  let exitCode: number = ExitCode.Ok;
  let deps: Deps | undefined;
  const ctx: CommandContext = {
    depsFor(command) {
      deps = createDeps(base, globalsOf(command));
      return deps;
    },
    setExitCode(code) {
      exitCode = code;
    },
  };
  const program = buildProgram(base, ctx);
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version "fail" with exitCode 0; anything else commander refuses is a usage error.
      return err.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    const code = base.signal.aborted && !(err instanceof CliError) ? ExitCode.Interrupted : exitCodeFor(err);
    reportError(base, deps, err, code);
    return code;
  } finally {
    await deps?.close();
  }
}

function globalsOf(command: Command): GlobalOptions {
  const o = command.optsWithGlobals() as Partial<GlobalOptions>;
  return {
    json: o.json ?? DEFAULT_GLOBALS.json,
    profile: o.profile,
    baseUrl: o.baseUrl,
    debug: o.debug ?? DEFAULT_GLOBALS.debug,
    color: o.color ?? DEFAULT_GLOBALS.color,
    input: o.input ?? DEFAULT_GLOBALS.input,
  };
}

function reportError(base: BaseDeps, deps: Deps | undefined, err: unknown, code: number): void {
  const theme = deps?.theme.err ?? createTheme(colorEnabled(base.io.stderrIsTTY, base.env, undefined));
  if (err instanceof CliError) {
    base.io.err(`${theme.error("Error:")} ${err.message}\n`);
    if (err.hint) base.io.err(`${theme.dim(err.hint)}\n`);
    return;
  }
  if (code === ExitCode.Interrupted) {
    base.io.err(`${theme.error("Interrupted.")}\n`);
    return;
  }
  const detail = err instanceof Error ? (deps?.globals.debug ? (err.stack ?? err.message) : err.message) : String(err);
  base.io.err(`${theme.error("Unexpected error:")} ${detail}\n`);
  base.io.err(`${theme.dim("This is a bug in shipctl. Run again with --debug for details.")}\n`);
}

export function buildProgram(base: BaseDeps, ctx: CommandContext): Command {
  const program = new Command("shipctl")
    .description("Ship artwork from the command line: addresses, shipments, condition reports and checkout.")
    .version(__SHIPCTL_VERSION__, "-V, --version", "print the version")
    .option("--json", "print one JSON document on stdout (for scripts)")
    .option("--profile <name>", "use this saved profile (env SHIPCTL_PROFILE)")
    .option("--base-url <url>", "service URL for this run (env SHIPCTL_BASE_URL)")
    .option("--debug", "log each request (method, URL, status, time, retries) to stderr; the token is redacted")
    .option("--no-color", "no colours (also NO_COLOR=1)")
    .option("--no-input", "never prompt; fail naming the missing flag instead")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => base.io.out(s),
      writeErr: (s) => base.io.err(s),
    });
  program.helpCommand(false);
  registerCommands(program, ctx);
  program
    .command("help")
    .description("show help for a command, or a topic: `shipctl help exit-codes`")
    .argument("[topic...]", "a command (e.g. `shipment create`) or `exit-codes`")
    .action((topic: string[]) => {
      if (topic.join(" ") === "exit-codes") {
        base.io.out(exitCodesText());
        return;
      }
      let target: Command = program;
      for (const word of topic) {
        const sub = target.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!sub) throw new UsageError(`no command or help topic "${topic.join(" ")}"`);
        target = sub;
      }
      base.io.out(target.helpInformation());
    });
  return program;
}

export function exitCodesText(): string {
  const lines = EXIT_CODE_TABLE.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`);
  return `Exit codes:\n${lines.join("\n")}\n`;
}
