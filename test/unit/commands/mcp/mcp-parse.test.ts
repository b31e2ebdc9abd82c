// `shipctl mcp`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { mcpCommand } from "../../../../src/commands/mcp/mcp.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("mcp (parse only)", () => {
  it("serves every tool by default; --read-only only the reading ones", async () => {
    expect(await parsedOptions(mcpCommand, [])).toEqual({ readOnly: false });
    expect(await parsedOptions(mcpCommand, ["--read-only"])).toEqual({ readOnly: true });
  });

  it("takes no arguments", async () => {
    await expect(parsedOptions(mcpCommand, ["serve"])).rejects.toThrow(/too many arguments|unknown command/);
  });
});
