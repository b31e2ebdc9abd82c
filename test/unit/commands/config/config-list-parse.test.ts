// `config list`: no options of its own (the profile is the global --profile).
import { describe, expect, it } from "vitest";
import { configListCommand } from "../../../../src/commands/config/config-list.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("config list (parse only)", () => {
  it("takes nothing of its own", async () => {
    expect(await parsedOptions(configListCommand, [])).toEqual({});
  });

  it("refuses an argument", async () => {
    await expect(parsedOptions(configListCommand, ["baseUrl"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});
