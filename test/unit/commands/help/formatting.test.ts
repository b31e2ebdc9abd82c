// `shipctl help formatting`: printed by `help`, and every example in it a command line shipctl takes: each flag one its
// command has (or a global one), each --fields field one the command offers, each --query a valid expression.
import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram } from "../../../../src/commands/program.js";
import { withVerbs } from "../../../../src/commands/index.js";
import { recordSpecOf } from "../../../../src/commands/record-output.js";
import type { CommandContext } from "../../../../src/commands/action.js";
import { FORMATTING_HELP } from "../../../../src/commands/help/formatting.js";
import { queryProblem } from "../../../../src/output/json-shape.js";
import { testDeps } from "../../../helpers/deps.js";

function program(): { program: Command; stdout: () => string } {
  const t = testDeps();
  const ctx: CommandContext = { depsFor: () => t.deps, setExitCode: () => undefined, runShipctl: () => Promise.reject(new Error("not here")) };
  return { program: buildProgram(t.deps, ctx, "0.0.0-test"), stdout: () => t.io.stdout() };
}

/** The words of a shell line, quotes taken off ('a b' and "a b" are one word). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

describe("shipctl help formatting", () => {
  it("prints the topic", async () => {
    const p = program();
    await p.program.parseAsync(["help", "formatting"], { from: "user" });
    expect(p.stdout()).toBe(FORMATTING_HELP);
  });

  it("its examples are command lines shipctl takes", async () => {
    const examples = FORMATTING_HELP.split("\n")
      .map((l) => l.trim().replace(/^id=\$\(/, "").replace(/\)$/, ""))
      .filter((l) => l.startsWith("shipctl "))
      .map((l) => words(l.replace(/\s+(>|#).*$/, "").replace(/\s{2,}\S.*$/, "")).slice(1));
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const argv of examples) {
      let command: Command = program().program;
      const globals = command.options.map((o) => o.long);
      for (const word of argv.slice(0, argv.findIndex((w) => w.startsWith("-")))) {
        const sub = (await withVerbs(command)).commands.find((c) => c.name() === word);
        if (!sub) break;
        command = sub;
      }
      command = await withVerbs(command);
      const line = argv.join(" ");
      const flags = [...globals, ...command.options.map((o) => o.long)];
      for (const flag of argv.filter((w) => w.startsWith("--"))) expect(flags, `${line}: ${flag}`).toContain(flag);
      const fields = argv[argv.indexOf("--fields") + 1];
      if (argv.includes("--fields")) for (const f of fields!.split(",")) expect(recordSpecOf(command)?.fields, `${line}: ${f}`).toContain(f);
      if (argv.includes("--query")) expect(queryProblem(argv[argv.indexOf("--query") + 1]!), line).toBeUndefined();
    }
  });
});
