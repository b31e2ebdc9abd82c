// `shipctl mcp`: a Model Context Protocol server on stdio. stdin and stdout carry the protocol and nothing else (each
// tool call's command writes into a captured IO, its talk on stderr); tools/list sends each tool's input schema as
// JSON Schema built from its zod schema, so every bound of src/contract/ reaches the client.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { UsageError, errorJson } from "../errors.js";
import { KindQueue } from "./kind-queue.js";
import { callTool, type CallContext, type ToolResult } from "./tool-call.js";
import type { McpTool } from "./tool-types.js";

export interface ServeOptions {
  tools: readonly McpTool[];
  version: string;
  call: CallContext;
  /** Said to the client on initialize: how the tools are meant to be used. */
  instructions: string;
}

/** The tool as tools/list shows it. */
export function listedTool(tool: McpTool) {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema as { type: "object"; [key: string]: unknown },
    annotations: { readOnlyHint: tool.writes === undefined, destructiveHint: tool.destructive === true, idempotentHint: true, openWorldHint: true },
  };
}

/** Serves until the client closes stdin. */
export async function serveMcp(options: ServeOptions): Promise<void> {
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const listed = options.tools.map(listedTool);
  const queue = new KindQueue();
  const server = new Server({ name: "shipctl", version: options.version }, { capabilities: { tools: {} }, instructions: options.instructions });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<ToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const error = new UsageError(`no tool named ${JSON.stringify(request.params.name)}`, { hint: `The tools: ${[...byName.keys()].join(", ")}.` });
      return { content: [{ type: "text", text: JSON.stringify({ error: errorJson(error) }, null, 2) }], isError: true };
    }
    const run = () => callTool(tool, request.params.arguments, options.call);
    return tool.writes === undefined ? run() : queue.run(tool.writes, run);
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // The stdio transport does not end on its own when the client closes stdin.
    process.stdin.once("end", () => void server.close());
    // Ctrl-C: calls in flight stop as a command's run does (writes already sent are waited for and recorded).
    options.call.base.signal.addEventListener("abort", () => void server.close(), { once: true });
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
