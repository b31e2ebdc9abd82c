// `address verify` for one address (flags or --file): read and checked locally, then put to the service once.
import type { Deps } from "../deps.js";
import type { AddressFlags } from "../input/address-fields.js";
import { readAddressInput } from "../input/address-input.js";
import { verifyWithService, type VerificationResult } from "./verification.js";

export async function verifyAddress(deps: Deps, input: AddressFlags): Promise<VerificationResult> {
  const address = await readAddressInput(deps, input);
  return verifyWithService(deps, await deps.api(), address);
}
