// POST /api/v1/addresses for one address, stored at most once. The service has no idempotency key, so a request whose
// answer was lost (a dropped connection, a timeout, a 5xx) is never sent again here: after a short wait the stored
// addresses are read back and matched the way `address add --csv` matches them (every field, created since the
// request), which tells "stored" from "not stored". Only when the read-back cannot tell is the outcome left unknown.
import type { ApiClient } from "../api/types.js";
import type { Address } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { InterruptedError, UnavailableError } from "../errors.js";
import { classifyFailure } from "../ledger/failure-kind.js";
import { RECONCILE_DELAY_MS } from "../ledger/lost.js";
import { listedFinder } from "../ledger/listed-finder.js";
import { addressesListed } from "../ledger/listed-resources.js";
import { settleAtFromIntent, settleWindowFor } from "../ledger/settle-window.js";
import { callOptions } from "../input/call-options.js";

export interface CreatedAddress {
  id: number;
  /** True when the answer was lost and the id was found by reading the addresses back. */
  foundAfterLoss: boolean;
}

/** Error codes of a request that ran out of time: the service may still be working on it after our wait. */
const TIMED_OUT = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

/** How a person settles it: the address, if stored, is among the newest. */
const CHECK = "`shipctl list addresses` shows whether an address with these fields was created just now";

export async function createAddressOnce(deps: Deps, api: ApiClient, address: Address): Promise<CreatedAddress> {
  // Taken before sending, on the local clock: only addresses created after this (moved onto the service's clock by the
  // offset the read-back measures, less the margin; see ledger/reconcile.ts) can be the one sent.
  const at = deps.clock.now().toISOString();
  try {
    const { id } = await api.createAddress(address, { signal: deps.signal });
    return { id, foundAfterLoss: false };
  } catch (err) {
    if (classifyFailure(err, "addresses").kind !== "lost") throw err;
    return { id: await readBack(deps, api, address, at, err as Error), foundAfterLoss: true };
  }
}

async function readBack(deps: Deps, api: ApiClient, address: Address, at: string, lost: Error): Promise<number> {
  deps.io.err(
    `${lost.message}\nNot sending it again; reading the stored addresses back in ${RECONCILE_DELAY_MS / 1000} s ` +
      "to see whether it was stored...\n",
  );
  let found: { state: "created"; id: number } | undefined;
  try {
    await deps.clock.sleep(RECONCILE_DELAY_MS, deps.signal);
    const finder = listedFinder(addressesListed(api, callOptions(deps, "Reading the addresses")), { claimed: new Set(), sentOf: () => [address], lagMs: undefined });
    const settleAt = settleAtFromIntent(new Date(at), settleWindowFor({ baseUrl: "https://service.invalid", env: {} })).toISOString();
    const hit = (await finder.find([{ key: "address", state: { state: "in_flight", at, attempt: 1, settle_at: settleAt } }])).get("address");
    found = hit === undefined ? undefined : { state: "created", id: hit as number };
  } catch (err) {
    if (deps.signal.aborted) {
      throw new InterruptedError("interrupted while checking whether the address was stored: it may have been", {
        hint: `${CHECK}: look before running the command again.`,
      });
    }
    throw new UnavailableError(
      `the answer to storing the address was lost, and reading the addresses back failed (${(err as Error).message}): ` +
        "whether it was stored is unknown",
      { hint: `${CHECK}: look before running the command again, since running it blindly may store it twice.`, cause: err },
    );
  }
  if (found?.state === "created") return found.id;
  // One candidate in a request of its own is either found or not: "uncertain" (part of a request found) cannot occur.
  const code = (lost as { code?: unknown }).code;
  if (typeof code === "string" && TIMED_OUT.has(code)) {
    throw new UnavailableError(
      `the request to store the address timed out, and it was not among the stored addresses ${RECONCILE_DELAY_MS / 1000} s later; ` +
        "the service may still be storing it",
      { hint: `${CHECK}: wait a minute and look before running the command again.`, cause: lost },
    );
  }
  throw new UnavailableError(
    `the address was not stored: the answer to its request was lost, and reading the addresses back ` +
      `${RECONCILE_DELAY_MS / 1000} s later did not find it`,
    { hint: "Nothing was stored, so running the same command again is safe.", cause: lost },
  );
}
