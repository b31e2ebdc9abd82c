// `logout`: no options of its own (the profile is the global --profile), and no arguments.
import { describe, expect, it } from "vitest";
import { logoutCommand } from "../../../../src/commands/auth/logout.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("logout (parse only)", () => {
  it("takes nothing of its own", async () => {
    expect(await parsedOptions(logoutCommand, [])).toEqual({});
  });

  it("refuses an argument", async () => {
    await expect(parsedOptions(logoutCommand, ["staging"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});
