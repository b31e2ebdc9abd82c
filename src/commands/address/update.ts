// `shipctl address update <id>`: the same input and verification rules as `add`, then a PATCH with the full address.
import type { Deps } from "../../deps.js";
import { readAddressInput } from "../../input/address-input.js";
import { callOptions } from "../../input/call-options.js";
import { parseId } from "../../input/ids.js";
import { printJson } from "../../output/json.js";
import type { AddFlags } from "./add.js";
import { addressToStore } from "../../addresses/store-policy.js";

export async function run(deps: Deps, args: string[], flags: AddFlags): Promise<void> {
  const id = parseId(args[0] ?? "", "address id");
  const address = await readAddressInput(deps, flags, { targetId: id });
  const api = await deps.api();
  const toStore = await addressToStore(deps, api, address, flags);
  await api.updateAddress(id, toStore, callOptions(deps, `Updating address ${id}`));
  if (deps.globals.json) printJson(deps.io, { id, address: toStore });
  deps.io.err(`Updated address ${id}.\n`);
}
