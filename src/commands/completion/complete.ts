// `shipctl __complete WORD... CURRENT`, which the completion scripts run at each TAB (completion/protocol.ts): the
// program's command tree, as every run builds it, walked by completion/candidates.ts with the values of this machine
// (completion/local-values.ts). main.ts answers it before anything else, as it does --version: no colours, no Deps,
// no network; a noun's verbs load only when the words reach it.
import type { BaseDeps } from "../../deps.js";
import { ExitCode } from "../../errors.js";
import { buildProgram } from "../program.js";
import { completeWords } from "../../completion/candidates.js";
import { localValues } from "../../completion/local-values.js";
import { completionAnswer } from "../../completion/protocol.js";
import type { CommandContext } from "../action.js";
import { withVerbs } from "../index.js";

export async function runComplete(words: readonly string[], base: BaseDeps, version: string): Promise<number> {
  const program = buildProgram(base, nothingRuns, version);
  const completion = await completeWords(program, words.length > 0 ? words : [""], { expand: withVerbs, lookup: localValues(base.env) });
  base.io.out(completionAnswer(completion));
  return ExitCode.Ok;
}

/** The tree is only read: no command's action is ever called. */
const nothingRuns: CommandContext = {
  depsFor: () => {
    throw new Error("no command runs while completing");
  },
  setExitCode: () => undefined,
  runShipctl: () => Promise.reject(new Error("no command runs while completing")),
};
