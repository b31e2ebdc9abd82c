// README.md and docs/usage.md promise that every command's --help has examples: each verb (a command without verbs
// of its own) shows an "Example:" or "Examples:" section. And where a help text sends the reader to read more, the
// place is there: a docs/ page that exists, not a README section the docs have moved out of.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram } from "../../../src/commands/program.js";
import { withVerbs } from "../../../src/commands/index.js";
import { HELP_TOPICS } from "../../../src/commands/help/topics.js";
import type { CommandContext } from "../../../src/commands/action.js";
import { testDeps } from "../../helpers/deps.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

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

  it("sends the reader only to pages that exist and files shipctl writes, and writes defaults alike", async () => {
    const program = buildProgram(testDeps().deps, nothingRuns, "0.0.0-test");
    const all = (await Promise.all(program.commands.map((c) => verbs(c, [c.name()])))).flat();
    const topics = await Promise.all(HELP_TOPICS.map(async (t) => ({ path: `help ${t.name}`, text: await t.text() })));
    const texts = [...all.map((v) => ({ path: v.path, text: helpOf(v.command) })), ...topics];
    const pages = texts.flatMap((t) => [...t.text.matchAll(/docs\/[\w-]+\.md/g)].map((m) => m[0]));
    expect(pages.filter((page) => !existsSync(join(ROOT, page)))).toEqual([]);
    // README.md keeps no sections of reference: they are in docs/ (README.md's "Documentation" table).
    expect(texts.filter((t) => /README(?!\.md\.)/.test(t.text)).map((t) => t.path)).toEqual([]);
    // A default is written as the other flags write it, "(default 4)", not as commander quotes a string default.
    expect(texts.filter((t) => /\(default: "/.test(t.text)).map((t) => t.path)).toEqual([]);
    // The ledger is the organization's, in the state folder: there is no ledgers/ folder.
    expect(texts.filter((t) => t.text.includes("ledgers/")).map((t) => t.path)).toEqual([]);
  });

  it("of the commands docs/commands.md documents: each flag is named there", async () => {
    const program = buildProgram(testDeps().deps, nothingRuns, "0.0.0-test");
    const nouns = program.commands.filter((c) => ["address", "shipment", "list", "csv"].includes(c.name()));
    const all = (await Promise.all(nouns.map((c) => verbs(c, [c.name()])))).flat();
    const page = readFileSync(join(ROOT, "docs", "commands.md"), "utf8");
    const missing = all.flatMap((v) =>
      v.command.options
        .map((o) => o.long!)
        .filter((flag) => flag !== "--help" && !new RegExp(`${flag}(?![\\w-])`).test(page))
        .map((flag) => `${v.path} ${flag}`),
    );
    expect(missing).toEqual([]);
  });
});
