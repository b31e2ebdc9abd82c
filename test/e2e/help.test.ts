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
