// The top-level help shows a line for each command declared in src/commands/index.ts, without building the command:
// each declared line (name, "[options]", arguments, description) must be the one the built command gives.
import { describe, expect, it } from "vitest";
import { Help } from "commander";
import { buildProgram } from "../../../src/commands/program.js";
import { withVerbs } from "../../../src/commands/index.js";
import type { CommandContext } from "../../../src/commands/action.js";
import { testDeps } from "../../helpers/deps.js";

const nothingRuns = { depsFor: () => ({}), setExitCode: () => undefined, runShipctl: async () => 0 } as unknown as CommandContext;

describe("the top-level commands", () => {
  it("are declared with the line their built command shows in the top-level help", async () => {
    const program = buildProgram(testDeps().deps, nothingRuns, "0.0.0-test");
    const lines = () => program.commands.map((c) => `${program.createHelp().subcommandTerm(c)}  ${c.description()}`);
    const declared = lines();
    for (const command of program.commands) await withVerbs(command);
    expect(declared).toEqual(lines());
    expect(program.commands.map((c) => new Help().subcommandTerm(c))).toEqual(declared.map((line) => line.split("  ")[0]));
  });

  it("are built only when reached: a verb has no flags before", async () => {
    const program = buildProgram(testDeps().deps, nothingRuns, "0.0.0-test");
    const checkout = program.commands.find((c) => c.name() === "checkout")!;
    expect(checkout.options).toEqual([]);
    await withVerbs(checkout);
    expect(checkout.options.map((o) => o.long)).toContain("--from");
  });
});
