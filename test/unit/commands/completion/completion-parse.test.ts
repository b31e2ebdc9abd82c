// `completion <shell>`: the shell, one of four; commander refuses any other before the run.
import { describe, expect, it } from "vitest";
import { completionCommand } from "../../../../src/commands/completion/completion.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("completion (parse only)", () => {
  it("takes each shell it has a script for", async () => {
    for (const shell of ["bash", "zsh", "fish", "powershell"]) expect(await parsedOptions(completionCommand, [shell])).toEqual({ shell });
  });

  it("refuses another shell, and none", async () => {
    await expect(parsedOptions(completionCommand, ["tcsh"])).rejects.toMatchObject({ code: "commander.invalidArgument" });
    await expect(parsedOptions(completionCommand, [])).rejects.toMatchObject({ code: "commander.missingArgument" });
  });
});
