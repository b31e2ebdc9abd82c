// Address verification as the commands use it: one call to the service, read into a result that `verify` prints and
// that `add` / `update` act on. The service answers 200 for a valid address and 400 with a verdict otherwise; when it
// sets `recommended`, the address fields of that 400 body are its proposed revision.
import type { ApiClient } from "../api/client-types.js";
import { Address, AddressVerificationStatus, verificationStatusName, type VerifyFailureBody } from "../contract/index.js";
import { callOptions, type Deps } from "../deps.js";
import { RejectedError, UnavailableError } from "../errors.js";
import { diffFields } from "../output/diff.js";

/** Address fields in the order people read them (and the diff lists them). */
export const ADDRESS_FIELD_ORDER = ["name", "email", "phone", "line_1", "line_2", "city", "region", "post_code", "country"] as const;

export interface FieldChangeJson {
  field: string;
  from: unknown;
  to: unknown;
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
  /** Field by field, how `revised` differs from `address`. */
  changes: FieldChangeJson[];
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
  const revised = body.recommended ? revisionOf(body) : null;
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

function revisionOf(body: VerifyFailureBody): Address {
  const revised: Record<string, unknown> = {};
  for (const field of ADDRESS_FIELD_ORDER) {
    const value = body[field];
    if (value !== undefined && value !== null) revised[field] = value;
  }
  return revised as Address;
}

export function changesBetween(before: Address, after: Address): FieldChangeJson[] {
  return diffFields(before, after, ADDRESS_FIELD_ORDER).map((c) => ({ field: c.field, from: c.before ?? null, to: c.after ?? null }));
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
