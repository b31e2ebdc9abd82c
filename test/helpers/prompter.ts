// A scripted prompter for tests: answers in order, and fails loudly on an unexpected prompt.
import type { Prompter } from "../../src/prompter.js";

export function scriptedPrompter(answers: Array<boolean | string>): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (message: string) => {
    asked.push(message);
    if (answers.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return answers.shift()!;
  };
  return {
    asked,
    confirm: async (m) => Boolean(next(m)),
    input: async (m) => String(next(m)),
    password: async (m) => String(next(m)),
    select: async <T extends string>(m: string) => String(next(m)) as T,
  };
}
