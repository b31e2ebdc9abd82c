// One tool call: its arguments checked, then its shipctl command run in this process with --json and --no-input,
// its stdout captured as the result. The result is the command's document; a failure is the command's error
// document ({"error": {code, exit_code, message, hint}}, or the command's own document with "error" in it) marked
// as a tool error.
import type { BaseDeps } from "../deps.js";
import { ExitCode, UsageError, errorJson, exitCodeOfError, exitErrorJson } from "../errors.js";
import { invalidInput, problemsFrom } from "../input/problems.js";
import { isRecord } from "../contract/json.js";
import { capturedIO } from "../output/io.js";
import { refusingPrompter } from "../prompter.js";
import type { McpTool, ToolCommand } from "./tool-types.js";

// Over MCP, stdin carries the protocol: no one can answer a prompt. Commands run with --no-input already refuse to
// ask (naming the flag instead); this prompter makes sure of it: it refuses and never reads stdin.
const noPrompts = refusingPrompter((message) => {
  throw new UsageError(`no one can answer a prompt over MCP (it asked: ${message})`, {
    hint: "Give the tool the argument that decides it (accept_recommended, confirm_total_cents...).",
  });
});

export interface CallContext {
  /** Runs a whole shipctl command line in this process, as the binary would (main). */
  runShipctl(argv: string[], base: BaseDeps): Promise<number>;
  /** The server's clock, env, cwd and signals; its io and prompter are replaced per call. */
  base: BaseDeps;
  /** The server's own global flags every call repeats (--profile, --base-url, --debug). */
  globalArgs: string[];
  /** The server's stderr. */
  talk(text: string): void;
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  isError: boolean;
}

export async function callTool(tool: McpTool, args: unknown, ctx: CallContext): Promise<ToolResult> {
  const checked = (tool.gate ?? tool.input).safeParse(args ?? {});
  if (!checked.success) {
    const error = invalidInput({ subject: `The input of ${tool.name}`, problems: problemsFrom(checked.error, args) });
    return toolResult({ error: errorJson(error) }, ExitCode.Usage);
  }
  let command: ToolCommand;
  try {
    command = tool.command(checked.data);
  } catch (e) {
    return toolResult({ error: errorJson(e) }, exitCodeOfError(e));
  }
  const { argv, stdin } = command;
  const io = capturedIO(ctx.talk, stdin === undefined ? "" : JSON.stringify(stdin));
  let code: number;
  try {
    code = await ctx.runShipctl(["--json", "--no-input", ...ctx.globalArgs, ...argv], { ...ctx.base, io, prompter: noPrompts });
  } catch (e) {
    // main() maps every failure to an exit code; this is a bug, shown as one.
    return toolResult({ error: errorJson(e) }, ExitCode.Failure);
  }
  const doc = documentOf(io.captured()) ?? { error: exitErrorJson(code) };
  return toolResult(code === ExitCode.Ok && tool.finish ? tool.finish(doc) : doc, code);
}

/** The command's one JSON document (undefined when it printed none). */
function documentOf(stdout: string): Record<string, unknown> | undefined {
  if (stdout.trim() === "") return undefined;
  try {
    const value = JSON.parse(stdout) as unknown;
    return isRecord(value) ? value : { result: value };
  } catch {
    return { output: stdout };
  }
}

/** A command's document as the tool's result, a tool error unless the exit code says it went well. */
export function toolResult(doc: Record<string, unknown>, code: number): ToolResult {
  // `due` exits 10 when a report window is open: its answer, not a failure.
  return { content: [{ type: "text", text: JSON.stringify(doc, null, 2) }], isError: code !== ExitCode.Ok && code !== ExitCode.Due };
}
