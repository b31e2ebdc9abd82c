// `auth status [--offline]` and `whoami [--offline]`: one command under two names.
import { describe, expect, it } from "vitest";
import { Command } from "commander";
import { authStatusCommand } from "../../../../src/commands/auth/status.js";
import type { CommandContext, VerbRun } from "../../../../src/commands/action.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

/** `shipctl whoami`: the top level hands authStatusCommand a command of that name (commands/index.ts). */
const whoamiCommand = (ctx: CommandContext, run: VerbRun<{ offline: boolean }>) => authStatusCommand(ctx, run, new Command("whoami"));

describe("auth status and whoami (parse only)", () => {
  it("defaults: check the token", async () => {
    expect(await parsedOptions(authStatusCommand, [])).toEqual({ offline: false });
    expect(await parsedOptions(whoamiCommand, [])).toEqual({ offline: false });
  });

  it("--offline", async () => {
    expect(await parsedOptions(authStatusCommand, ["--offline"])).toEqual({ offline: true });
    expect(await parsedOptions(whoamiCommand, ["--offline"])).toEqual({ offline: true });
  });

  it("is called status under auth, whoami at the top level", () => {
    const noop = async () => undefined;
    const ctx = { depsFor: () => ({}) as never, setExitCode: () => undefined, runShipctl: () => Promise.resolve(0) };
    expect(authStatusCommand(ctx, noop).name()).toBe("status");
    expect(whoamiCommand(ctx, noop).name()).toBe("whoami");
  });

  it("refuses an argument", async () => {
    await expect(parsedOptions(whoamiCommand, ["someone"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});
