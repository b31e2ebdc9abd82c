// `profile remove NAME [--yes]`: whether --yes is needed depends on a terminal, which the run knows.
import { describe, expect, it } from "vitest";
import { profileRemoveCommand } from "../../../../src/commands/profile/remove.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("profile remove (parse only)", () => {
  it("defaults: ask", async () => {
    expect(await parsedOptions(profileRemoveCommand, ["old"])).toEqual({ name: "old", yes: false });
  });

  it("--yes and -y", async () => {
    expect(await parsedOptions(profileRemoveCommand, ["old", "--yes"])).toEqual({ name: "old", yes: true });
    expect(await parsedOptions(profileRemoveCommand, ["-y", "old"])).toEqual({ name: "old", yes: true });
  });

  it("refuses a name no profile can have (exit 2), and needs one", async () => {
    await expect(parsedOptions(profileRemoveCommand, ["a/b"])).rejects.toBeInstanceOf(UsageError);
    await expect(parsedOptions(profileRemoveCommand, [])).rejects.toMatchObject({ code: "commander.missingArgument" });
  });
});
