// Starts the built `shipctl mcp` as a child process (no terminal, its own config folder) and speaks the protocol to it
// with the SDK's own client over stdio, as an assistant's client would.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, ROOT, cliEnv, type RunOptions } from "../../helpers/cli.js";

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Anything on stdout that was not a protocol message (the client reports it as an error). */
  protocolErrors: Error[];
  /** Calls a tool; the document its text holds, and whether it is a tool error. */
  call(name: string, args?: Record<string, unknown>): Promise<{ doc: Record<string, unknown>; isError: boolean }>;
  close(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would: a call it was running never answers. */
  kill(): Promise<void>;
}

export async function startMcp(args: string[] = [], options: Pick<RunOptions, "sandbox" | "configDir" | "env" | "cwd"> = {}): Promise<McpSession> {
  const env = Object.fromEntries(Object.entries(cliEnv(options)).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", ...args], env, cwd: options.cwd ?? ROOT, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const protocolErrors: Error[] = [];
  const client = new Client({ name: "shipctl-e2e", version: "1.0.0" });
  await client.connect(transport);
  // Set after connect: the client installs its own handler there.
  const previous = transport.onerror;
  transport.onerror = (e) => {
    protocolErrors.push(e);
    previous?.(e);
  };
  return {
    client,
    stderr: () => stderr,
    protocolErrors,
    async call(name, toolArgs = {}) {
      const r = (await client.callTool({ name, arguments: toolArgs })) as { content: Array<{ type: string; text: string }>; isError?: boolean };
      expectOneText(r.content);
      return { doc: JSON.parse(r.content[0]!.text) as Record<string, unknown>, isError: r.isError === true };
    },
    close: () => client.close(),
    async kill() {
      if (transport.pid !== null) process.kill(transport.pid, "SIGKILL");
      await client.close();
    },
  };
}

function expectOneText(content: Array<{ type: string; text: string }>): void {
  if (content.length !== 1 || content[0]!.type !== "text") throw new Error(`expected one text content, got ${JSON.stringify(content)}`);
}
