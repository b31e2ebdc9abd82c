// Address verification as the commands use it: one call to the service, read into a result that `verify` prints and
// that `add` / `update` act on. The service answers 200 for a valid address and 400 with a verdict otherwise; when it
// sets `recommended`, the address fields of that 400 body are its proposed revision.
// What `address add` and `address update` store: the address as given when the service finds it valid (or with
// --no-verify), the service's recommended revision only with --accept-recommended or a yes at the prompt, and nothing
// when the service finds it invalid. One place, so both commands follow the same rules. `address update <id>` then
// sends a PATCH with the full address (the service replaces the whole record, so resending it is harmless and needs
// no ledger).
import type { ApiClient } from "../api/client-types.js";
import { ADDRESS_FIELDS, Address, AddressVerificationStatus, verificationStatusName, type AddressField } from "../contract/index.js";
import { callOptions, type Deps } from "../deps.js";
import { CancelledError, RejectedError, UnavailableError } from "../errors.js";
import { diffFields, renderDiff } from "../output/diff.js";
import type { AddressFlags } from "../input/address-fields.js";
import { readAddressInput } from "../input/address-input.js";
import { confirmRevision } from "../batch/address-set.js";
import type { ChangedField } from "../batch/outcomes.js";

export interface StorePolicy {
  /** false with --no-verify. */
  verify: boolean;
  acceptRecommended: boolean;
}

/** What `address verify --json` prints; `add` and `update` decide from it. */
export interface VerificationResult {
  valid: boolean;
  /** Address Verification Status; null for a valid address (the service answers 200 without one). */
  status: number | null;
  status_name: string;
  recommended: boolean;
  message: string | null;
  /** The address as sent. */
  address: Address;
  /** The service's recommended revision, when it recommends one. */
  revised: Address | null;
  /** Field by field, how `revised` differs from `address` (as a CSV update's changes, without a column). */
  changes: Array<Omit<ChangedField, "column">>;
}

export async function verifyWithService(deps: Deps, api: ApiClient, address: Address): Promise<VerificationResult> {
  const outcome = await api.verifyAddress(address, callOptions(deps, "Address verification"));
  if (outcome.valid) {
    return { valid: true, status: null, status_name: "Valid", recommended: false, message: null, address, revised: null, changes: [] };
  }
  const body = outcome.result;
  // The client retries status 0 itself; one that still comes back means the service's verifier stayed throttled.
  if (body.status === AddressVerificationStatus.RateLimited) {
    throw new UnavailableError("the service's address verifier is rate limited and stayed so after retries", {
      hint: "Wait a minute and run the command again.",
    });
  }
  const revised = body.recommended ? addressOf(body) : null;
  return {
    valid: false,
    status: body.status,
    status_name: verificationStatusName(body.status),
    recommended: body.recommended,
    message: body.message,
    address,
    revised,
    changes: revised ? changesBetween(address, revised) : [],
  };
}

/** The address fields a record holds (a verdict's revision, a stored address), as a request would carry them. */
export function addressOf(record: Partial<Record<AddressField, unknown>>): Address {
  const held = ADDRESS_FIELDS.filter((f) => record[f] !== null && record[f] !== undefined);
  return Object.fromEntries(held.map((f) => [f, record[f]])) as Address;
}

function changesBetween(before: Address, after: Address): VerificationResult["changes"] {
  return diffFields(before, after, ADDRESS_FIELDS).map((c) => ({ field: c.field, from: c.before ?? null, to: c.after ?? null }));
}

/** A revision the service proposes must still meet the contract before we send it back. */
export function checkedRevision(revised: Address): Address {
  const parsed = Address.safeParse(revised);
  if (parsed.success) return parsed.data;
  const rules = parsed.error.issues.map((i) => i.message).join("; ");
  throw new RejectedError(`the service's recommended revision breaks the contract's rules (${rules}); nothing was stored`, {
    hint: "Correct the address by hand and run again.",
  });
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
  const address = await readAddressInput(deps, input, id);
  const api = await deps.api();
  const toStore = await addressToStore(deps, api, address, policy);
  await api.updateAddress(id, toStore, callOptions(deps, `Updating address ${id}`));
  return toStore;
}
