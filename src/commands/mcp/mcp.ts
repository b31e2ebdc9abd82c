// `shipctl mcp`: a Model Context Protocol server on stdio for AI assistants. Each tool runs a shipctl command in this
// process with --json and answers with its document (src/mcp/); the server is loaded when the command runs.
import { Command } from "commander";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface McpOptions {
  /** --read-only: list and run only the tools that write nothing. */
  readOnly: boolean;
}

/** The server runs shipctl command lines in this process, as main() does: the context hands that over. */
export function mcpCommand(
  ctx: CommandContext,
  run: VerbRun<McpOptions> = async (options, deps) => (await import("../../mcp/start.js")).startMcp(deps, { readOnly: options.readOnly, runShipctl: ctx.runShipctl }),
  command = new Command("mcp"),
): Command {
  command
    .description("serve shipctl's operations to an AI assistant over the Model Context Protocol (stdio)")
    .option("--read-only", "offer only the tools that write nothing (no address stored, shipment created or payment)")
    .addHelpText(
      "after",
      `
stdin and stdout carry the protocol: start it from an MCP client, not by hand. Logs go to stderr. The profile's
base URL and token are used as by every command (--profile, SHIPCTL_PROFILE, SHIPCTL_TOKEN...); the token is never
sent to the assistant.

Each tool runs the shipctl command it names with --json, and its result is that command's JSON document (a failure:
the command's {"error": {code, exit_code, message, hint}}). Writes go through the same ledgers as from the command
line, so a repeated call never creates or charges twice; checkout pays only the total quote_checkout returned
(confirm_total_cents). No tool prompts or reads stdin. docs/mcp.md lists the tools.
list_shipments keeps id, title, status_name, price and created_at of each shipment unless its fields input names
others (the names of list shipments --fields). A client that closes stdin with a call in flight still gets its
answer: the server finishes the call, writes the answer, then exits (docs/mcp.md).

Register it with a client (Claude Desktop's claude_desktop_config.json, or any "mcpServers" configuration):
  {"mcpServers": {"shipctl": {"command": "shipctl", "args": ["mcp", "--profile", "gallery"]}}}

Examples:
  shipctl mcp --profile gallery
  shipctl mcp --read-only
`,
    );
  return command.action(verbAction(ctx, (_args, flags: Partial<McpOptions>) => ({ readOnly: flags.readOnly === true }), run));
}
