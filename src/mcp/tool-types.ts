// What an MCP tool is here: a typed input (zod, built from src/contract/, sent to the client as JSON Schema) and the
// shipctl command line it stands for. The tool runs that command in this process with --json and returns its
// document, so a tool does exactly what the command does: the same checks, ledger, messages and exit codes.
import type * as z from "zod";

/** What a writing tool writes: calls of one kind run one at a time (kind-queue.ts). */
export type WriteKind = "address" | "shipment" | "checkout" | "report";

/** The command a tool call runs: its words after `shipctl`, and the JSON its `-` input reads (never the real stdin). */
export interface ToolCommand {
  argv: string[];
  stdin?: unknown;
}

export interface McpTool {
  name: string;
  description: string;
  /** Sent to the client as the tool's JSON Schema, and checked before the command runs unless `gate` is given. */
  input: z.ZodObject;
  /**
   * Checked instead of `input` where the command checks some fields itself (an address, shipment items): those are
   * then refused with the command's own messages, as from the command line.
   */
  gate?: z.ZodObject;
  /** Undefined for a reading tool (listed with --read-only). */
  writes?: WriteKind;
  /**
   * A reading tool whose request changes what a write of this kind relies on waits for that kind's calls, as they wait
   * for each other (quote_checkout: its price session replaces the one a checkout in flight is about to pay).
   */
  waitsFor?: WriteKind;
  /** It replaces what was there, or spends money: clients may ask the user first (MCP's destructiveHint). */
  destructive?: boolean;
  command(input: Record<string, unknown>): ToolCommand;
  /** Adds to the command's document on success (quote_checkout's confirm_total_cents). */
  finish?(doc: Record<string, unknown>): Record<string, unknown>;
}

/** Builds a tool with its input typed from its schema. */
export function defineTool<S extends z.ZodObject>(tool: Omit<McpTool, "input" | "command"> & { input: S; command(input: z.infer<S>): ToolCommand }): McpTool {
  return tool as unknown as McpTool;
}
