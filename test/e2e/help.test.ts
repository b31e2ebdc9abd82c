import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

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
  });

  it("refuses an unknown flag with exit 2 and says so on stderr", async () => {
    const r = await runCli(["--bogus"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unknown option '--bogus'");
  });
});

describe("--json on help topics and the demo", () => {
  it("prints the exit codes as one JSON array", async () => {
    const r = await runCli(["help", "exit-codes", "--json"]);
    expect(r.exitCode).toBe(0);
    const table = JSON.parse(r.stdout) as Array<{ code: number; meaning: string }>;
    expect(table.map((e) => e.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 130]);
    expect(table[2]!.meaning).toMatch(/nothing was sent/);
  });

  it("refuses --json on the demo, whose output is a transcript for people (exit 2, nothing on stdout)", async () => {
    const r = await runCli(["demo", "--json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("no JSON output");
  });
});
