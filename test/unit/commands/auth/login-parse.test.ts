// `login`: the command line to options, nothing run. Which flags a run without a terminal needs
// (--base-url, --token-stdin) depends on where it runs: that is the run's, covered in test/e2e/auth.
import { describe, expect, it } from "vitest";
import { loginCommand } from "../../../../src/commands/auth/login.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("login (parse only)", () => {
  it("defaults: the token is asked for", async () => {
    expect(await parsedOptions(loginCommand, [])).toEqual({ tokenStdin: false });
  });

  it("--token-stdin", async () => {
    expect(await parsedOptions(loginCommand, ["--token-stdin"])).toEqual({ tokenStdin: true });
  });

  it("has no token flag: a token on a command line is commander's refusal", async () => {
    await expect(parsedOptions(loginCommand, ["--token", "secret"])).rejects.toMatchObject({ code: "commander.unknownOption" });
  });
});
