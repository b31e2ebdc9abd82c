// Over MCP, stdin carries the protocol: no one can answer a prompt. Commands run with --no-input already refuse to
// ask (naming the flag instead); this prompter makes sure of it: it refuses and never reads stdin.
import { UsageError } from "../errors.js";
import type { Prompter } from "../prompter.js";

function refuse(message: string): never {
  throw new UsageError(`no one can answer a prompt over MCP (it asked: ${message})`, {
    hint: "Give the tool the argument that decides it (accept_recommended, confirm_total_cents...).",
  });
}

export const noPrompts: Prompter = {
  confirm: async (message) => refuse(message),
  input: async (message) => refuse(message),
  password: async (message) => refuse(message),
  select: async (message) => refuse(message),
};
