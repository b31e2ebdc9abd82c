// What `address add` and `address update` store: the address as given when the service finds it valid (or with
// --no-verify), the service's recommended revision only with --accept-recommended or a yes at the prompt, and nothing
// when the service finds it invalid. One place, so both commands follow the same rules. `address update <id>` then
// sends a PATCH with the full address (the service replaces the whole record, so resending it is harmless and needs
// no ledger).
import type { ApiClient } from "../api/client-types.js";
import type { Address } from "../contract/index.js";
import { callOptions, type Deps } from "../deps.js";
import type { AddressFlags } from "../input/address-fields.js";
import { readAddressInput } from "../input/address-input.js";
import { CancelledError, RejectedError } from "../errors.js";
import { renderDiff } from "../output/diff.js";
import { confirmRevision } from "../batch/address-set.js";
import { checkedRevision, verifyWithService } from "./verification.js";

export interface StorePolicy {
  /** false with --no-verify. */
  verify: boolean;
  acceptRecommended: boolean;
}

export async function addressToStore(deps: Deps, api: ApiClient, address: Address, policy: StorePolicy): Promise<Address> {
  const theme = deps.theme.err;
  if (!policy.verify) {
    deps.io.err(`${theme.warn("Warning:")} not verified (--no-verify); an unverified address may cause lost or delayed shipments.\n`);
    return address;
  }
  const result = await verifyWithService(deps, api, address);
  if (result.valid) return address;
  if (!result.recommended || !result.revised) {
    throw new RejectedError(`the service found the address ${result.status_name.toLowerCase()}: ${result.message}; nothing was stored`, {
      hint: "Correct the address and run again (or pass --no-verify to store it unverified, at your own risk).",
    });
  }
  // The revision once, field by field: the service's message says the same in a sentence (issue 12), and is left for
  // when there is no field to show.
  const diff = renderDiff(result.changes.map((c) => ({ field: c.field, before: c.from, after: c.to })), { theme });
  const shown = `The service recommends a revised address:${result.changes.length > 0 ? `\n${diff}` : ` ${result.message}\n`}`;
  const revised = checkedRevision(result.revised);
  if (policy.acceptRecommended) {
    deps.io.err(`${shown}Using the recommended address (--accept-recommended).\n`);
    return revised;
  }
  // Even with --quiet: the prompt, or the error, below is about it.
  deps.io.alert(shown);
  if (!deps.canPrompt()) {
    throw new RejectedError("the service recommends a revised address (shown above), so nothing was stored", {
      hint: "Pass --accept-recommended to store the revision, or correct the input and run again.",
    });
  }
  if (await confirmRevision(deps.prompter)) return revised;
  throw new CancelledError("the recommended revision was declined, so nothing was stored", {
    hint: "Correct the input and run again, or pass --no-verify to store the address exactly as given.",
  });
}

/** `address update <id>`: returns the address as stored (the recommended revision, when one was accepted). */
export async function updateAddress(deps: Deps, id: number, input: AddressFlags, policy: StorePolicy): Promise<Address> {
  const address = await readAddressInput(deps, input, { targetId: id });
  const api = await deps.api();
  const toStore = await addressToStore(deps, api, address, policy);
  await api.updateAddress(id, toStore, callOptions(deps, `Updating address ${id}`));
  return toStore;
}
