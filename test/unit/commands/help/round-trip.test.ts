// `shipctl help round-trip` and docs/csv.md's "The spreadsheet round trip, worked" show the same commands, in the
// same order (test/e2e/help.test.ts checks their flags; the e2e round trip runs them against the sandbox).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROUND_TRIP_HELP } from "../../../../src/commands/help/round-trip.js";
import { ROOT } from "../../../helpers/cli.js";

/** The command lines, without the comment that ends a line (the page's `# exit 8`) or a console block's `$ `. */
const commandsIn = (text: string) =>
  text
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim().replace(/^\$ /, ""))
    .filter((l) => l.startsWith("shipctl "));

it("docs/csv.md shows the commands of `help round-trip`, in its order", () => {
  const page = readFileSync(join(ROOT, "docs", "csv.md"), "utf8");
  const start = page.indexOf("## The spreadsheet round trip, worked\n");
  expect(start).toBeGreaterThan(-1);
  const section = page.slice(start, page.indexOf("\n## ", start + 1));
  expect(commandsIn(section)).toEqual(commandsIn(ROUND_TRIP_HELP));
  expect(commandsIn(ROUND_TRIP_HELP)).toHaveLength(9);
});

