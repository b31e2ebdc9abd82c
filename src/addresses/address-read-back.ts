// Reading stored addresses back to settle lost `address add` requests (ledger/listed-finder.ts). What a row sent is
// its intent's record (the address exactly as sent); a ledger of shipctl 0.1 recorded none, and then the forms the row
// may have been sent in (as written, or as revised by the verifier) stand in (`legacySent`).
import type { CallOptions } from "../api/client-types.js";
import type { Address } from "../contract/index.js";
import type { Deps } from "../deps.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { listedFinder, type ListedFinder } from "../ledger/listed-finder.js";
import { addressesListed } from "../ledger/listed-resources.js";
import { recordedLag } from "../ledger/service-lag.js";

export async function addressFinder(deps: Deps, call: CallOptions, ledger: InputLedger, legacySent?: ReadonlyMap<string, Address[]>): Promise<ListedFinder> {
  const [api, connection] = await Promise.all([deps.api(), deps.connection()]);
  return listedFinder(addressesListed(api, call), {
    claimed: ledger.claimedIds(),
    sentOf: (r) => (r.state.sent as Address[] | undefined) ?? legacySent?.get(r.key),
    lagMs: await recordedLag(deps.env, connection.baseUrl),
    debug: (line) => deps.debug(line),
  });
}
