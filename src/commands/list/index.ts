// Wiring of `shipctl list shipments|addresses`: flags and help only; the logic is imported when the command runs.
import type { Command } from "commander";
import { lazyAction, type CommandContext } from "../action.js";
import { PAGE } from "../../contract/limits.js";

/** The verbs of `shipctl list` (the noun itself is declared in ../index.ts). */
export function registerVerbs(list: Command, ctx: CommandContext): void {
  list.addHelpText("after", "\nRun `shipctl list shipments --help` for the flags and examples.\n");
  registerKind(list, ctx, "shipments", "ID, TITLE, STATUS (by name), VALUE, SERVICE, PRICE (dollars), CREATED");
  registerKind(list, ctx, "addresses", "ID, NAME, LINE 1, CITY, REGION, POST CODE, COUNTRY");
}

function registerKind(list: Command, ctx: CommandContext, kind: "shipments" | "addresses", columns: string): Command {
  const command = list
    .command(kind)
    .description(`list ${kind}`)
    .option("--page <n>", `page to read (from ${PAGE.firstPage})`)
    .option("--limit <n>", `items per page, ${PAGE.limit.min} to ${PAGE.limit.max} (the service's default is ${PAGE.defaultLimit})`)
    .option("--all", "read every page from --page on, following the service's next-page links")
    .option("--ndjson", "print one JSON document per item and line, as each page arrives (for streaming)")
    .addHelpText(
      "after",
      `
Output: a table (${columns}); stderr says when more pages exist.
With --json: the items as ONE JSON array (with --all, every page's items). With --ndjson: one item per line.
A bad --page or --limit is exit 2 before anything is sent.

Examples:
  shipctl list ${kind}
  shipctl list ${kind} --page 2 --limit 50
  shipctl list ${kind} --all --json | jq length
  shipctl list ${kind} --all --ndjson | jq -c 'select(.id > 100)'
`,
    );
  command.action(lazyAction(ctx, async () => (await import("./run.js")).runFor(kind)));
  return command;
}
