// `shipctl mcp`: a Model Context Protocol server on stdio. stdin and stdout carry the protocol and nothing else (each
// tool call's command writes into a captured IO, its talk on stderr); tools/list sends each tool's input schema as
// JSON Schema built from its zod schema, so every bound of src/contract/ reaches the client.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { InterruptedError, UsageError, errorJson } from "../errors.js";
import { ignoreClosedPipe } from "../output/io.js";
import { KindQueue } from "./kind-queue.js";
import { callTool, toolResult, type CallContext, type ToolResult } from "./tool-call.js";
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
  const pending = new Pending();
  const server = new Server({ name: "shipctl", version: options.version }, { capabilities: { tools: {} }, instructions: options.instructions });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const error = new UsageError(`no tool named ${JSON.stringify(request.params.name)}`, { hint: `The tools: ${[...byName.keys()].join(", ")}.` });
      return toolResult({ error: errorJson(error) }, error.exitCode);
    }
    // A call the client cancelled (notifications/cancelled, or its timeout) while it waited for its turn behind a call
    // of its kind is not started: the client was told it did not happen, so a payment the user called off is not made
    // later. One already running goes on, as the ledger expects of a write.
    const run = () => (extra.signal.aborted ? Promise.resolve(notStarted(tool, options.call)) : callTool(tool, request.params.arguments, options.call));
    const kind = tool.writes ?? tool.waitsFor;
    return pending.track(kind === undefined ? run() : queue.run(kind, run));
  });
  const transport = new StdioServerTransport();
  // A client that went away (quit, crashed, killed) closed stdout with stdin: an answer then has nowhere to go and is
  // dropped, instead of an uncaught EPIPE that stopped the server with a stack trace and exit 1, with any other call
  // cut off mid-write. The calls in flight finish, and the server stops as when stdin closes.
  process.stdout.on("error", ignoreClosedPipe);
  const stdoutClosed = new Promise<void>((resolve) => process.stdout.once("close", resolve));
  // Answers are written after their call settles (the SDK sends them then): tracked too, so closing waits for them.
  const send = transport.send.bind(transport);
  transport.send = (message) => pending.track(Promise.race([send(message), stdoutClosed]));
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // The stdio transport does not end on its own when the client closes stdin. A client that closes stdin with a
    // call in flight (a script that sends its requests and closes) still gets the answer: the calls finish and their
    // answers are written first.
    process.stdin.once("end", () => {
      const said = (calls: number) => options.call.talk(`the client closed stdin: answering ${calls === 1 ? "the call" : `${calls} calls`} in flight, then stopping\n`);
      void pending.drained(said).then(() => server.close());
    });
    // Ctrl-C: calls in flight stop as a command's run does (writes already sent are waited for and recorded).
    options.call.base.signal.addEventListener("abort", () => void server.close(), { once: true });
  });
  await server.connect(transport);
  await closed;
}

/**
 * The answer to a call called off before it started (the SDK sends none to a cancelled call; kept for the log): by the
 * client, or by the server stopping (Ctrl-C), which closes it and so cancels every call it holds.
 */
function notStarted(tool: McpTool, call: CallContext): ToolResult {
  const by = call.base.signal.aborted ? "the server is stopping" : "the client cancelled it";
  const error = new InterruptedError(`${tool.name} was not started: ${by}; nothing was sent`);
  call.talk(`${error.message}\n`);
  return toolResult({ error: errorJson(error) }, error.exitCode);
}

/** The tool calls in flight and the answers being written. */
class Pending {
  private readonly work = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.work.add(work);
    const forget = () => void this.work.delete(work);
    work.then(forget, forget);
    return work;
  }

  /**
   * Resolves once nothing is in flight. Each look comes a turn of the event loop later: a request read with the end
   * of stdin starts its call, and a settled call's answer is handed to the transport, in the promise jobs before it.
   */
  async drained(onWaiting: (count: number) => void): Promise<void> {
    for (let first = true; ; first = false) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.work.size === 0) return;
      if (first) onWaiting(this.work.size);
      await Promise.allSettled([...this.work]);
    }
  }
}
