// `shipctl help round-trip` and README's "The spreadsheet round trip, worked" show the same commands, in the same
// order (test/e2e/help.test.ts checks their flags; the e2e round trip runs them against the sandbox).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROUND_TRIP_HELP } from "../../../../src/commands/help/round-trip.js";
import { ROOT } from "../../../helpers/cli.js";

const commandsIn = (text: string) => text.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("shipctl "));

it("README shows the commands of `help round-trip`, in its order", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("#### The spreadsheet round trip, worked"));
  const block = section.slice(section.indexOf("```sh"), section.indexOf("```\n", section.indexOf("```sh") + 5));
  expect(commandsIn(block)).toEqual(commandsIn(ROUND_TRIP_HELP));
  expect(commandsIn(ROUND_TRIP_HELP)).toHaveLength(9);
});

