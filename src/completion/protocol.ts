// How the shell scripts (shell-scripts.ts) and shipctl talk at TAB time, as cobra's `__complete` does for gh: the
// script runs `shipctl __complete WORD... CURRENT` (the words after `shipctl`, the one under the cursor last, "" for
// a new word) and reads one candidate a line, `value<TAB>description`, then a last line saying whether file names
// may be offered instead when no candidate is given (`:files`) or not (`:nofiles`).
import type { Completion } from "./candidates.js";

/** The hidden first word that asks for completions; main.ts answers it before building the command line. */
export const COMPLETE_COMMAND = "__complete";

export const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;
export type Shell = (typeof SHELLS)[number];

export function completionAnswer(completion: Completion): string {
  const lines = completion.candidates.map((c) => (c.description ? `${c.value}\t${c.description}` : c.value));
  // One candidate a line: a line break inside a value (a hand-made table's name) would make two.
  const clean = lines.map((l) => l.replace(/[\r\n]+/g, " "));
  return `${[...clean, completion.files ? ":files" : ":nofiles"].join("\n")}\n`;
}
