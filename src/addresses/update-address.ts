// `address update <id>`: the same input and store policy as `add`, then a PATCH with the full address (the service
// replaces the whole record, so resending it is harmless and needs no ledger).
import type { Address } from "../contract/index.js";
import { callOptions, type Deps } from "../deps.js";
import type { AddressFlags } from "../input/address-fields.js";
import { readAddressInput } from "../input/address-input.js";
import { addressToStore, type StorePolicy } from "./store-policy.js";

/** Returns the address as stored (the recommended revision, when one was accepted). */
export async function updateAddress(deps: Deps, id: number, input: AddressFlags, policy: StorePolicy): Promise<Address> {
  const address = await readAddressInput(deps, input, { targetId: id });
  const api = await deps.api();
  const toStore = await addressToStore(deps, api, address, policy);
  await api.updateAddress(id, toStore, callOptions(deps, `Updating address ${id}`));
  return toStore;
}
