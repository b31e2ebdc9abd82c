// `profile list`: nothing of its own (--json and --profile are global), and no arguments.
import { describe, expect, it } from "vitest";
import { profileListCommand } from "../../../../src/commands/profile/list.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("profile list (parse only)", () => {
  it("takes nothing of its own", async () => {
    expect(await parsedOptions(profileListCommand, [])).toEqual({});
  });

  it("refuses an argument", async () => {
    await expect(parsedOptions(profileListCommand, ["work"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});
