// How the words typed so far are walked through a commander tree, on a small tree of its own: the rules of the walk
// (subcommands, flags with values, variadic flags, `--`, flags given once, case) apart from shipctl's commands.
import { Argument, Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { completeWords, type CompletionContext } from "../../../src/completion/candidates.js";
import { completesWith } from "../../../src/completion/value-source.js";

interface Tree {
  root: Command;
  /** The verbs of the noun `thing`, added when it is expanded. */
  verbs: Command[];
  expanded: string[];
}

function tree(): Tree {
  const root = new Command("tool").option("--json", "one JSON document").addOption(completesWith(new Option("--profile <name>", "a profile"), "profiles"));
  root.command("thing").description("things");
  root.command("other").description("others");
  const make = new Command("make")
    .description("make a thing")
    .option("--title <text>", "its title")
    .addOption(completesWith(new Option("--status <name...>", "statuses"), "statuses"))
    .addOption(completesWith(new Option("--service <service>", "a service"), "services"))
    .addOption(new Option("--shape <shape>", "its shape").choices(["round", "square"]))
    .addArgument(completesWith(new Argument("[kind]", "a kind"), ["big", "Bigger", "small"]));
  const show = new Command("show").argument("<id>", "an id");
  return { root, verbs: [make, show], expanded: [] };
}

/** A noun's verbs added on first use, as commands/index.ts does; look-ups answered from fixed lists. */
function context(t: Tree, seen: Array<Record<string, string>> = []): CompletionContext {
  return {
    async expand(command) {
      if (command.name() === "thing" && command.commands.length === 0) {
        t.expanded.push("thing");
        for (const verb of t.verbs) command.addCommand(verb);
      }
      return command;
    },
    lookup(source, given) {
      seen.push({ ...given });
      if (source === "statuses") return [{ value: "draft" }, { value: "drop-off" }, { value: "filed" }];
      if (source === "services") return [{ value: `Express-for-${given.profile ?? "default"}` }];
      return [{ value: "default" }, { value: "staging" }];
    },
  };
}

async function values(words: string[], seen?: Array<Record<string, string>>) {
  const t = tree();
  const completion = await completeWords(t.root, words, context(t, seen));
  return { ...completion, values: completion.candidates.map((c) => c.value), expanded: t.expanded };
}

describe("completeWords", () => {
  it("completes subcommands, loading a noun's verbs only when the words reach it", async () => {
    expect(await values(["th"])).toMatchObject({ values: ["thing"], files: false, expanded: [] });
    expect(await values(["thing", ""])).toMatchObject({ values: ["make", "show", "help"], expanded: ["thing"] });
    expect((await values(["thing", "m"])).values).toEqual(["make"]);
  });

  it("completes the flags of the command and of its parents, less those already given", async () => {
    const r = await values(["thing", "make", "--"]);
    expect(r.values).toEqual(["--title", "--status", "--service", "--shape", "--help", "--json", "--profile"]);
    expect(r.candidates[0]).toEqual({ value: "--title", description: "its title" });
    expect((await values(["thing", "make", "--title", "x", "--json", "--"])).values).toEqual(["--status", "--service", "--shape", "--help", "--profile"]);
    expect((await values(["thing", "make", "--se"])).values).toEqual(["--service"]);
  });

  it("completes a flag's values: declared ones, looked-up ones, commander's choices", async () => {
    expect((await values(["thing", "make", "--status", "dr"])).values).toEqual(["draft", "drop-off"]);
    expect((await values(["thing", "make", "--shape", ""])).values).toEqual(["round", "square"]);
    expect((await values(["--profile", "s"])).values).toEqual(["staging"]);
  });

  it("completes a value written after the flag and an =, as one word or split at the = as bash does", async () => {
    expect((await values(["thing", "make", "--service=Ex"])).values).toEqual(["--service=Express-for-default"]);
    expect((await values(["thing", "make", "--service", "=", "Ex"])).values).toEqual(["Express-for-default"]);
    expect((await values(["thing", "make", "--json=x"])).values).toEqual([]);
  });

  it("keeps completing a variadic flag's values until another flag", async () => {
    expect((await values(["thing", "make", "--status", "draft", "f"])).values).toEqual(["filed"]);
    expect((await values(["thing", "make", "--status", "draft", "--json", ""])).values).toEqual(["big", "Bigger", "small"]);
  });

  it("hands the flags already on the line to a look-up (the profile a service table belongs to)", async () => {
    const seen: Array<Record<string, string>> = [];
    expect((await values(["--profile", "staging", "thing", "make", "--service", ""], seen)).values).toEqual(["Express-for-staging"]);
    expect((await values(["thing", "make", "--profile=staging", "--service", ""])).values).toEqual(["Express-for-staging"]);
    expect(seen).toEqual([{ profile: "staging" }]);
  });

  it("completes positional arguments after the flags, and offers file names where it knows no values", async () => {
    expect((await values(["thing", "make", "--title", "x", "b"])).values).toEqual(["big"]);
    expect(await values(["thing", "show", ""])).toMatchObject({ values: [], files: true });
    expect(await values(["thing", "make", "--title", ""])).toMatchObject({ values: [], files: true });
    expect(await values(["thing", "show", "12", ""])).toMatchObject({ values: [], files: false });
  });

  it("matches the case typed first, and any case when nothing matches so (dr -> Draft)", async () => {
    expect((await values(["thing", "make", "B"])).values).toEqual(["Bigger"]);
    expect((await values(["thing", "make", "BI"])).values).toEqual(["big", "Bigger"]);
  });

  it("after --, takes every word as an argument, never a flag", async () => {
    expect(await values(["thing", "make", "--", "-"])).toMatchObject({ values: [] });
    expect((await values(["thing", "make", "--", "s"])).values).toEqual(["small"]);
  });
});
