// README.md and docs/usage.md promise that every command's --help has examples: each verb (a command without verbs
// of its own) shows an "Example:" or "Examples:" section.
import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram } from "../../../src/commands/program.js";
import { withVerbs } from "../../../src/commands/index.js";
import type { CommandContext } from "../../../src/commands/action.js";
import { testDeps } from "../../helpers/deps.js";

const nothingRuns = {
  depsFor: () => ({}),
  setExitCode: () => undefined,
  runShipctl: async () => 0,
} as unknown as CommandContext;

async function verbs(command: Command, path: string[]): Promise<Array<{ path: string; command: Command }>> {
  await withVerbs(command);
  const subs = command.commands.filter((c) => c.name() !== "help");
  if (subs.length === 0) return [{ path: path.join(" "), command }];
  return (await Promise.all(subs.map((c) => verbs(c, [...path, c.name()])))).flat();
}

function helpOf(command: Command): string {
  let text = "";
  command.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
  command.outputHelp();
  return text;
}

describe("every verb's --help", () => {
  it("shows examples", async () => {
    const program = buildProgram(testDeps().deps, nothingRuns, "0.0.0-test");
    const all = (await Promise.all(program.commands.map((c) => verbs(c, [c.name()])))).flat();
    expect(all.length).toBeGreaterThan(40);
    const without = all.filter((v) => !/^Examples?:$/m.test(helpOf(v.command))).map((v) => v.path);
    expect(without).toEqual([]);
  });
});
