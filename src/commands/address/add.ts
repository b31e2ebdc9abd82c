// `shipctl address add`: verifies (unless --no-verify), then stores the address and prints its new id.
import type { Deps } from "../../deps.js";
import type { AddressFlags } from "../../input/address-fields.js";
import { readAddressInput } from "../../input/address-input.js";
import { printJson } from "../../output/json.js";
import { createAddressOnce } from "../../addresses/create-once.js";
import { addressToStore, type StorePolicyFlags } from "../../addresses/store-policy.js";

export type AddFlags = AddressFlags & StorePolicyFlags;

export async function run(deps: Deps, _args: string[], flags: AddFlags): Promise<void> {
  const address = await readAddressInput(deps, flags);
  const api = await deps.api();
  const toStore = await addressToStore(deps, api, address, flags);
  // POST /api/v1/addresses is not idempotent: after a lost answer it is read back, never sent again (create-once.ts).
  const { id, foundAfterLoss } = await createAddressOnce(deps, api, toStore);
  if (foundAfterLoss) deps.io.err(`Found it among the stored addresses: the request did take effect, and was not sent again.\n`);
  if (deps.globals.json) printJson(deps.io, { id, address: toStore });
  else deps.io.out(`${id}\n`);
  deps.io.err(`Stored address ${id}.\n`);
}
