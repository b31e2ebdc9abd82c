// `shipctl address get <id>`: one stored address, as a table for people or the service's record as JSON.
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { parseId } from "../../input/ids.js";
import { printJson } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { printsRecords } from "../record-output.js";
import { STORED_ADDRESS_FIELDS } from "../../contract/fields.js";

export interface GetOptions {
  id: number;
}

export function getCommand(ctx: CommandContext, run: VerbRun<GetOptions> = runGet): Command {
  const command = new Command("get")
    .argument("<id>", "id of the stored address")
    .description("show a stored address")
    .addHelpText(
      "after",
      `
Output: a table of the fields; with --json the service's record (id, the address fields, created_at, updated_at).
Exit 6 when there is no address with that id.

Examples:
  shipctl address get 12
  shipctl address get 12 --json | jq -r .email
`,
    );
  // The --json document is the address itself.
  printsRecords(command, { in: [], fields: STORED_ADDRESS_FIELDS, outputs: ["json"] });
  return command.action(verbAction(ctx, parseGet, run));
}

export function parseGet(args: string[]): GetOptions {
  return { id: parseId(args[0] ?? "", "address id") };
}

export async function runGet(options: GetOptions, deps: Deps): Promise<void> {
  const { callOptions } = await import("../../deps.js");
  const address = await (await deps.api()).getAddress(options.id, callOptions(deps, `Reading address ${options.id}`));
  if (deps.globals.json) return printJson(deps.io, address);
  const { enumLabels } = await import("../../input/table-values.js");
  const { addressRows } = await import("../../addresses/describe-address.js");
  const { renderRecord, tableWidth } = await import("../../output/table.js");
  const labels = await enumLabels(deps);
  deps.io.out(renderRecord(addressRows(address, labels.country), { theme: deps.theme.out, width: tableWidth(deps.io) }));
}
