// `address add` for one address (flags or --file): read and checked locally, then stored at most once
// (create-once.ts); what is stored follows the store policy (verification, a recommended revision).
import type { Deps } from "../deps.js";
import type { AddressFlags } from "../input/address-fields.js";
import { readAddressInput } from "../input/address-input.js";
import { addAddressOnce, type AddedAddress, type AddOnceOptions } from "./create-once.js";
import { addressToStore, type StorePolicy } from "./store-policy.js";

export async function addAddress(deps: Deps, input: AddressFlags, options: AddOnceOptions & { store: StorePolicy }): Promise<AddedAddress> {
  const address = await readAddressInput(deps, input);
  return addAddressOnce(deps, address, { wait: options.wait, forceNew: options.forceNew }, (api) => addressToStore(deps, api, address, options.store));
}
