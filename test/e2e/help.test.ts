import { describe, expect, it } from "vitest";
import { HELP_TOPICS } from "../../src/commands/help/topics.js";
import { runCli } from "../helpers/cli.js";
import { testDeps } from "../helpers/deps.js";
import { buildProgram } from "../../src/commands/program.js";
import { withVerbs } from "../../src/commands/index.js";
import type { CommandContext } from "../../src/commands/action.js";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("shipctl with no service at all", () => {
  it("prints the version on stdout and nothing on stderr", async () => {
    const r = await runCli(["--version"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(r.stderr).toBe("");
  });

  it("lists the exit codes as a help topic", async () => {
    const r = await runCli(["help", "exit-codes"]);
    expect(r.exitCode).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 130]) expect(r.stdout).toMatch(new RegExp(`^\\s+${code}\\s`, "m"));
    // The --json error names under their exit code.
    expect(r.stdout).toMatch(/^\s+6\s+the service rejected.*\n\s+rejected, forbidden, not_found, validation_failed, request_rejected, redirected$/m);
  });

  it("walks the spreadsheet round trip as a help topic, every flag of it one its command has", async () => {
    const r = await runCli(["help", "round-trip"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("shipctl "));
    expect(lines).toHaveLength(9);
    for (const line of lines) {
      const words = line.replace(/ > .*$/, "").split(" ").slice(1);
      const verb = words.slice(0, words.findIndex((w) => w.startsWith("-"))).slice(0, 2);
      const help = await runCli([...verb, "--help"]);
      expect(help.exitCode, line).toBe(0);
      for (const flag of words.filter((w) => w.startsWith("--"))) expect(help.stdout, `${line}: ${flag}`).toContain(flag);
    }
    expect((await runCli(["--help"])).stdout).toMatch(/^ {2}round-trip +the spreadsheet loop/m);
  });

  it("colours stderr with FORCE_COLOR (chalk loaded although no stream is a terminal), and not with --no-color", async () => {
    const coloured = await runCli(["address", "get", "1"], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
    expect(coloured.exitCode).toBe(4);
    expect(coloured.stderr).toContain("\u001B[31mError:\u001B[39m");
    const plain = await runCli(["address", "get", "1", "--no-color"], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
    expect(plain.exitCode).toBe(4);
    expect(plain.stderr).toMatch(/^Error: /);
    expect(plain.stderr).not.toContain("\u001B[");
  });

  it("refuses an unknown flag with exit 2 and says so on stderr", async () => {
    const r = await runCli(["--bogus"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unknown option '--bogus'");
  });

  it("refuses a verb's unknown flag the same way, with the hint to its --help", async () => {
    for (const args of [["list", "shipments", "--bogus"], ["checkout", "1", "--bogus"]]) {
      const r = await runCli(args);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe("error: unknown option '--bogus'\n(run with --help for usage)\n");
    }
  });

  it("shows a verb's usage error as --no-color asks (the global flags are read before the verb's own)", async () => {
    for (const args of [["list", "shipments", "--limit", "99"], ["checkout", "1", "--retries", "x"]]) {
      const r = await runCli([...args, "--no-color"], { env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^Error: /);
      expect(r.stderr).not.toContain("\u001B[");
    }
  });
});

describe("help topics", () => {
  it("`help` alone and the root --help list every topic with its summary", async () => {
    for (const args of [["help"], ["--help"]]) {
      const r = await runCli(args);
      expect(r.exitCode, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("Help topics (shipctl help TOPIC):\n");
      for (const topic of HELP_TOPICS) expect(r.stdout, `${args.join(" ")}: ${topic.name}`).toMatch(new RegExp(`^ {2}${topic.name} +${escape(topic.summary)}$`, "m"));
    }
  });

  it("`help environment` prints every variable shipctl reads", async () => {
    const r = await runCli(["help", "environment"]);
    expect(r.exitCode, r.stderr).toBe(0);
    for (const name of ["SHIPCTL_PROFILE", "SHIPCTL_BASE_URL", "SHIPCTL_TOKEN", "SHIPCTL_CONFIG_DIR", "SHIPCTL_CACHE_DIR", "SHIPCTL_APPLY_WINDOW"]) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${name}\n {6}\\S`, "m"));
    }
    expect(r.stdout).toMatch(/^ {2}HTTPS_PROXY, https_proxy$/m);
    expect(r.stdout).toMatch(/^ {2}NO_COLOR$/m);
  });

  it("an unknown topic is exit 2 listing the topics and the commands", async () => {
    const r = await runCli(["help", "enviroment"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('no command or help topic "enviroment"');
    expect(r.stderr).toContain(`Help topics: ${HELP_TOPICS.map((t) => t.name).join(", ")}.`);
    expect(r.stderr).toMatch(/^Commands: address, shipment, .*, version, help\.$/m);
    const nested = await runCli(["help", "shipment", "crate"]);
    expect(nested.exitCode).toBe(2);
    expect(nested.stderr).toContain("Commands of shipment: update, get, template, create.");
    expect(nested.stderr).not.toContain("Help topics");
  });
});

describe("--json on help topics and the demo", () => {
  it("`help --json` lists the topics, saying which print a table", async () => {
    const r = await runCli(["help", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ topics: HELP_TOPICS.map((t) => ({ name: t.name, summary: t.summary, json: t.json !== undefined })) });
  });

  it("prints the environment variables as one JSON array", async () => {
    const r = await runCli(["help", "environment", "--json"]);
    expect(r.exitCode).toBe(0);
    const table = JSON.parse(r.stdout) as Array<{ names: string[]; kind: string; does: string; unset: string }>;
    for (const row of table) expect(Object.keys(row)).toEqual(["names", "kind", "does", "unset"]);
    expect(table).toContainEqual(expect.objectContaining({ names: ["SHIPCTL_TOKEN"], kind: "shipctl" }));
    expect(table).toContainEqual(expect.objectContaining({ names: ["NO_PROXY", "no_proxy"], kind: "standard" }));
  });

  it("refuses --json for help that is text for people (exit 2, only the error document on stdout)", async () => {
    for (const args of [["help", "round-trip", "--json"], ["help", "shipment", "--json"]]) {
      const r = await runCli(args);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(JSON.parse(r.stdout)).toEqual({ error: expect.objectContaining({ code: "usage_error", exit_code: 2 }) });
      expect(r.stderr).toContain("has no JSON output");
    }
  });

  it("prints the exit codes as one JSON array", async () => {
    const r = await runCli(["help", "exit-codes", "--json"]);
    expect(r.exitCode).toBe(0);
    const table = JSON.parse(r.stdout) as Array<{ code: number; meaning: string }>;
    expect(table.map((e) => e.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130]);
    expect(table[2]!.meaning).toMatch(/nothing was sent/);
    expect(table[2]).toMatchObject({ error_codes: ["usage_error", "certificate_error", "lock_failed"] });
  });

  it("refuses --json on the demo, whose output is a transcript for people (exit 2, only the error document on stdout)", async () => {
    const r = await runCli(["demo", "--json"]);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ error: expect.objectContaining({ code: "usage_error", exit_code: 2 }) });
    expect(r.stderr).toContain("no JSON output");
  });
});

// The nouns grouping verbs get their verbs only when a command line reaches them (src/commands/index.ts): every way
// of reaching one must find them all.
describe("nouns and their verbs", () => {
  /** Every noun of the program that groups verbs, with its verbs: as the program itself declares them. */
  async function nounVerbs(): Promise<Record<string, string[]>> {
    const ctx = { setExitCode: () => undefined, runShipctl: () => Promise.reject(new Error("not here")) } as unknown as CommandContext;
    const program = buildProgram(testDeps().deps, ctx, "0.0.0-test");
    const nouns: Record<string, string[]> = {};
    for (const command of program.commands) {
      const verbs = (await withVerbs(command)).commands.map((verb) => verb.name());
      if (verbs.length > 0) nouns[command.name()] = verbs;
    }
    return nouns;
  }

  it("the top-level help lists each noun with its description, and none of their verbs", async () => {
    const r = await runCli(["--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^ {2}address +verify, store, update and read addresses$/m);
    expect(r.stdout).toMatch(/^ {2}config +show and change saved settings/m);
    expect(r.stdout).not.toMatch(/^ {2}verify\b/m);
  });

  it("`<noun> --help`, `help <noun>` and a bare noun all list every verb", async () => {
    const VERBS = await nounVerbs();
    expect(Object.keys(VERBS)).toEqual(expect.arrayContaining(["address", "shipment", "list", "report", "config", "auth", "profile"]));
    for (const [noun, verbs] of Object.entries(VERBS)) {
      for (const args of [[noun, "--help"], ["help", noun]]) {
        const r = await runCli(args);
        expect(r.exitCode, args.join(" ")).toBe(0);
        for (const verb of verbs) expect(r.stdout, `${args.join(" ")} lists ${verb}`).toMatch(new RegExp(`^ {2}${verb}\\b`, "m"));
      }
    }
    const bare = await runCli(["address"]);
    expect(bare.exitCode).toBe(2);
    for (const verb of VERBS.address!) expect(bare.stderr).toMatch(new RegExp(`^ {2}${verb}\\b`, "m"));
  });

  it("`help <noun> <verb>` and `<noun> <verb> --help` print the verb's own usage", async () => {
    const viaHelp = await runCli(["help", "address", "verify"]);
    const viaFlag = await runCli(["address", "verify", "--help"]);
    expect(viaHelp.exitCode).toBe(0);
    expect(viaFlag.exitCode).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: shipctl address verify \[options\]/);
    // The whole help, with the examples after it.
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toContain("Examples:");
    const nested = await runCli(["help", "config", "tables", "show"]);
    expect(nested.exitCode).toBe(0);
    expect(nested.stdout).toMatch(/^Usage: shipctl config tables show/);
  });

  it("a mistyped verb is refused with a suggestion among the noun's verbs (exit 2)", async () => {
    const r = await runCli(["address", "verfy"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown command 'verfy'");
    expect(r.stderr).toContain("Did you mean verify?");
  });
});
