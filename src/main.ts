// Runs the program and maps whatever escapes to an exit code and a message on stderr, and with --json to the
// `{"error": ...}` document on stdout when the command printed none of its own (README "Errors as JSON").
// main() never exits the process: bin/shipctl.js sets process.exitCode from what it returns.
// Only what every run needs is imported up front; the command tree (commander and all wiring) is loaded with
// import(), so `shipctl --version` costs little more than starting node.
import { createDeps, DEFAULT_GLOBALS, type BaseDeps, type Deps, type GlobalOptions } from "./deps.js";
import { BUG_HINT, CliError, ExitCode, errorJson, exitCodeOfError, exitErrorJson, type ErrorJson } from "./errors.js";
import type { Command } from "commander";
import type { CommandContext } from "./commands/action.js";
import { createTheme, colorEnabled, loadColours } from "./output/theme.js";
import { asciiJsonStdout, watchStdout } from "./output/io.js";
import { printErrorJson, printJson } from "./output/json.js";
import { buildInfo } from "./version/build-info.js";
import { COMPLETE_COMMAND } from "./completion/protocol.js";

export { systemDeps } from "./system-deps.js";

const VERSION = __SHIPCTL_VERSION__;

export async function main(argv: string[], base: BaseDeps): Promise<number> {
  // `--version` alone prints only the version, which scripts compare; with --json, the build as `shipctl version --json`.
  const version = versionAsked(argv);
  if (version === "plain" || version === "json") {
    if (version === "json") printJson(base.io, buildInfo());
    else base.io.out(`${VERSION}\n`);
    return ExitCode.Ok;
  }
  // With --json and other global flags (--query...), it is `shipctl version` with them: commander's --version would
  // print the bare version and drop them, so `--version --json --query commit` printed "0.1.0".
  if (version === "command") argv = ["version", ...argv.filter((arg) => !isVersionFlag(arg))];
  // What a shell's TAB asks (`shipctl completion`): answered from the command tree without the rest of a run.
  if (argv[0] === COMPLETE_COMMAND) return (await import("./commands/completion/complete.js")).runComplete(argv.slice(1), base, VERSION);
  // Colours are decided per stream once the flags are parsed; chalk is loaded before a command runs, or an error is
  // shown, if either stream might want them (a terminal, or FORCE_COLOR). Runs without a terminal never load it, and
  // neither does --help, which commander prints without colours.
  const loadWantedColours = async () => {
    if (colorEnabled(base.io.stdoutIsTTY, base.env, undefined) || colorEnabled(base.io.stderrIsTTY, base.env, undefined)) {
      await loadColours();
    }
  };
  let exitCode: number = ExitCode.Ok;
  let deps: Deps | undefined;
  let output: "json" | "ndjson" | undefined;
  // JSON to another program on Windows is written as ASCII (asciiJsonStdout says why); -r's strings are not JSON.
  let asciiJson = false;
  const stdout = watchStdout(asciiJsonStdout(base.io, () => asciiJson));
  const ctx: CommandContext = {
    depsFor(command) {
      // The watched stdout under whatever the flags make of the IO (--quiet wraps it).
      deps = createDeps({ ...base, io: stdout.io }, globalsOf(command));
      output = jsonOutputOf(command, deps.globals.json);
      asciiJson = process.platform === "win32" && output !== undefined && !command.optsWithGlobals().rawOutput && !base.io.stdoutIsTTY;
      return deps;
    },
    setExitCode(code) {
      exitCode = code;
    },
    runShipctl: main,
  };
  /**
   * The failure as the one JSON document of a --json run, unless the command already printed its own; and a failure
   * thrown (`stream`) as the one line of an NDJSON run that printed nothing.
   */
  const jsonFailure = (error: ErrorJson, stream = true) => {
    if (stdout.written()) return;
    const asked = deps ? output : jsonAsked(argv);
    if (asked === "json" || (asked === "ndjson" && stream)) printErrorJson(stdout.io, error, { ndjson: asked === "ndjson" });
  };
  const { buildProgram, CommanderError } = await import("./commands/program.js");
  const program = buildProgram(base, ctx, VERSION);
  program.hook("preAction", loadWantedColours);
  try {
    await program.parseAsync(argv, { from: "user" });
    // A run that failed by its exit code alone (a command that said why on stderr) still gives a script its document;
    // a stream's lines are its own (a watch stopped by Ctrl-C ends without an error line: docs/operators.md).
    if (exitCode !== ExitCode.Ok) jsonFailure(exitErrorJson(exitCode), false);
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version "fail" with exitCode 0; anything else commander refuses is a usage error.
      if (err.exitCode === 0) return ExitCode.Ok;
      jsonFailure(commanderErrorJson(err));
      return ExitCode.Usage;
    }
    const code = base.signal.aborted && !(err instanceof CliError) ? ExitCode.Interrupted : exitCodeOfError(err);
    await loadWantedColours();
    reportError(base, deps, err, code);
    jsonFailure(errorJson(err, code));
    return code;
  } finally {
    await deps?.close();
  }
}

const isVersionFlag = (arg: string | undefined) => arg === "--version" || arg === "-V";
/** Root flags that may come with `--version --json`; those taking a value take the next word (or `=value`). */
const VERSION_GLOBALS = new Set(["--json", "--debug", "--no-color", "--no-input", "-q", "--quiet", "-r", "--raw-output"]);
const VERSION_GLOBALS_WITH_VALUE = new Set(["--query", "--profile", "--base-url"]);

/**
 * `--version` (or `-V`) alone, or with `--json` alone; "command" when `--json` comes with other root flags only, to
 * be run as `shipctl version`. Anything else (a command word) is left to commander (the bare version).
 */
function versionAsked(argv: readonly string[]): "plain" | "json" | "command" | undefined {
  if (argv.length === 1 && isVersionFlag(argv[0])) return "plain";
  if (argv.length === 2 && argv.includes("--json") && argv.some(isVersionFlag)) return "json";
  if (!argv.some(isVersionFlag) || !argv.includes("--json")) return undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (isVersionFlag(arg) || VERSION_GLOBALS.has(arg)) continue;
    if (VERSION_GLOBALS_WITH_VALUE.has(arg)) i++;
    else if (!VERSION_GLOBALS_WITH_VALUE.has(arg.split("=")[0]!)) return undefined;
  }
  return "command";
}

/**
 * The JSON a run prints, as parsed: --json (or --format json), or NDJSON (--ndjson, --format ndjson: list, due, watch),
 * whose failure is the stream's line {"error": ...} (README "Errors as JSON").
 */
function jsonOutputOf(command: Command, json: boolean): "json" | "ndjson" | undefined {
  const { format, ndjson } = command.opts<{ format?: unknown; ndjson?: unknown }>();
  const asked = typeof format === "string" ? format.trim().toLowerCase() : ndjson === true ? "ndjson" : undefined;
  if (json || asked === "json") return "json";
  return asked === "ndjson" ? "ndjson" : undefined;
}

/** The JSON asked for when commander refused the command line before any command ran: as written (before a `--`). */
function jsonAsked(argv: readonly string[]): "json" | "ndjson" | undefined {
  const end = argv.indexOf("--");
  const words = end === -1 ? argv : argv.slice(0, end);
  return words.includes("--json") ? "json" : words.includes("--ndjson") ? "ndjson" : undefined;
}

/** Commander's refusal (an unknown option, a missing argument), which it has already printed on stderr. */
function commanderErrorJson(err: { message: string; code: string }): ErrorJson {
  // A missing subcommand shows the usage instead of a message ("(outputHelp)").
  const message = err.code === "commander.help" ? "a command is needed" : err.message.replace(/^error: /, "");
  return { ...exitErrorJson(ExitCode.Usage, message), hint: "run with --help for usage" };
}

/** The global flags, as the program parsed them (commander leaves a flag not given unset: its default applies). */
function globalsOf(command: Command): GlobalOptions {
  const parsed = command.optsWithGlobals<Partial<GlobalOptions>>();
  const { json, profile, baseUrl, debug, color, input, quiet } = { ...DEFAULT_GLOBALS, ...parsed };
  return { json, profile, baseUrl, debug, color, input, quiet };
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
  base.io.err(`${theme.dim(BUG_HINT)}\n`);
}
