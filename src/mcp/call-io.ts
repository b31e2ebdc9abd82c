// The IO a tool call runs its command with. Over MCP, stdout is the protocol: the command's stdout (its --json
// document) is captured into the tool's result, and its talk goes to the server's stderr. Its stdin is the input the
// tool was given (an address, shipment items), never the server's own stdin.
import { PassThrough } from "node:stream";
import type { IO } from "../output/io.js";

export interface CapturedIO extends IO {
  /** Everything the command wrote on its stdout. */
  captured(): string;
}

export function captureIO(talk: (text: string) => void, stdinText = ""): CapturedIO {
  let out = "";
  const stdin = new PassThrough();
  stdin.end(stdinText);
  return {
    out: (text) => void (out += text),
    err: talk,
    alert: talk,
    stdin,
    // Not terminals: no colours, no progress redrawn in place, no prompt (a person cannot answer one here).
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: 80,
    captured: () => out,
  };
}
