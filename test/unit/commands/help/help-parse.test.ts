// `help [topic...]`: the words of the topic, nothing looked up (which commands exist is the run's question: the
// nouns' verbs load on first use).
import { describe, expect, it } from "vitest";
import { helpCommand } from "../../../../src/commands/help/help.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("help (parse only)", () => {
  it("no topic: the program's own help", async () => {
    expect(await parsedOptions(helpCommand, [])).toEqual({ topic: [] });
  });

  it("a command's words, or exit-codes", async () => {
    expect(await parsedOptions(helpCommand, ["shipment", "create"])).toEqual({ topic: ["shipment", "create"] });
    expect(await parsedOptions(helpCommand, ["exit-codes"])).toEqual({ topic: ["exit-codes"] });
  });

  it("any word is a topic until the run looks it up", async () => {
    expect(await parsedOptions(helpCommand, ["no-such-command"])).toEqual({ topic: ["no-such-command"] });
  });
});
