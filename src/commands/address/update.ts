// `shipctl address update <id>`: the same input and verification rules as `add`, then the full address replaces the
// stored one (addresses/update-address.ts).
import { Command } from "commander";
import type { StorePolicy } from "../../addresses/store-policy.js";
import type { Deps } from "../../deps.js";
import type { AddressFlags } from "../../input/address-fields.js";
import { parseId } from "../../input/ids.js";
import { printJson } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { INPUT_HELP, addressInput, addressInputOptions, storePolicy, storePolicyOptions } from "./address-flags.js";

export interface UpdateOptions {
  id: number;
  input: AddressFlags;
  store: StorePolicy;
}

type UpdateFlags = AddressFlags & { verify?: boolean; acceptRecommended?: boolean };

export function updateCommand(ctx: CommandContext, run: VerbRun<UpdateOptions> = runUpdate): Command {
  const command = new Command("update")
    .argument("<id>", "id of the stored address")
    .description("verify an address, then replace a stored address with it (every field is sent)")
    .addHelpText(
      "after",
      `${INPUT_HELP}

The service replaces the whole address, so every required field must be given: the usual way is to edit the output
of \`address get\`. Verification works as for \`address add\`.

Output: nothing on stdout; with --json {"id": 12, "address": {...as stored}}.

Examples:
  shipctl address get 12 --json > a.json && $EDITOR a.json && shipctl address update 12 --file a.json
  shipctl address update 12 --file a.json --phone "+12069536978" --accept-recommended
`,
    );
  addressInputOptions(command);
  storePolicyOptions(command);
  return command.action(verbAction(ctx, parseUpdate, run));
}

export function parseUpdate(args: string[], flags: UpdateFlags): UpdateOptions {
  return { id: parseId(args[0] ?? "", "address id"), input: addressInput(flags), store: storePolicy(flags) };
}

export async function runUpdate(options: UpdateOptions, deps: Deps): Promise<void> {
  const { updateAddress } = await import("../../addresses/update-address.js");
  const stored = await updateAddress(deps, options.id, options.input, options.store);
  if (deps.globals.json) printJson(deps.io, { id: options.id, address: stored });
  deps.io.alert(`Updated address ${options.id}.\n`);
}
