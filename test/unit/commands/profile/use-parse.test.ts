// `profile use NAME`: the name's spelling is checked on the command line; whether it exists, by the run.
import { describe, expect, it } from "vitest";
import { profileUseCommand } from "../../../../src/commands/profile/use.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("profile use (parse only)", () => {
  it("takes a profile name", async () => {
    expect(await parsedOptions(profileUseCommand, ["staging.eu-1"])).toEqual({ name: "staging.eu-1" });
  });

  it("refuses a name no profile can have (exit 2)", async () => {
    const e = await parsedOptions(profileUseCommand, ["x y"]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toContain('profile name "x y" may use only');
  });

  it("needs the name (commander's own refusal)", async () => {
    await expect(parsedOptions(profileUseCommand, [])).rejects.toMatchObject({ code: "commander.missingArgument" });
  });
});
