// `sandbox tick`: no arguments, nothing to choose.
import { describe, expect, it } from "vitest";
import { sandboxTickCommand } from "../../../../src/commands/sandbox/tick.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("sandbox tick (parse only)", () => {
  it("takes no arguments", async () => {
    expect(await parsedOptions(sandboxTickCommand, [])).toEqual({});
    await expect(parsedOptions(sandboxTickCommand, ["12"])).rejects.toThrow(/too many arguments/);
  });
});
