// Prompts, behind an interface so command logic is testable and so nothing prompts where no person can answer.
// @inquirer/prompts is loaded only when a prompt is actually shown. Prompts are drawn on stderr: stdout is data.
import { CancelledError } from "./errors.js";

export interface Choice<T extends string> {
  value: T;
  name: string;
}

export interface Prompter {
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  input(message: string, options?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  /** Hidden input (tokens). */
  password(message: string): Promise<string>;
  select<T extends string>(message: string, choices: Choice<T>[]): Promise<T>;
}

async function cancellable<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    // Ctrl-C or Ctrl-D at a prompt.
    if (e instanceof Error && (e.name === "ExitPromptError" || e.name === "AbortPromptError")) {
      throw new CancelledError("cancelled at the prompt");
    }
    throw e;
  }
}

export function systemPrompter(): Prompter {
  // process.stdin and process.stderr are built by Node on first use: only when a prompt is shown.
  const context = () => ({ input: process.stdin, output: process.stderr, clearPromptOnDone: false });
  const lib = () => import("@inquirer/prompts");
  return {
    confirm: (message, o = {}) => cancellable(async () => (await lib()).confirm({ message, default: o.default ?? false }, context())),
    input: (message, o = {}) => cancellable(async () => (await lib()).input({ message, ...o }, context())),
    password: (message) => cancellable(async () => (await lib()).password({ message, mask: "*" }, context())),
    select: (message, choices) => cancellable(async () => (await lib()).select({ message, choices }, context())),
  };
}

/** A prompter where no person can answer (a tool call over MCP, the demo's steps): every prompt throws `refuse`'s error. */
export function refusingPrompter(refuse: (message: string) => never): Prompter {
  const no = async (message: string) => refuse(message);
  return { confirm: no, input: no, password: no, select: no };
}
