// Finding an address already stored before `address add` stores it again. The ledger of the run that stored it is
// not always there to ask (another config folder, another machine, a CSV file that stored it, a first run whose input
// was typed differently), so the service's own list is the record: an address is "already stored" when a stored one
// is the same place for the same party, as people retype it: case, spaces around and inside the words, and an empty
// line_2 make no new address.
// And reading them back to settle lost `address add` requests (ledger/listed-finder.ts), one address or a CSV's.
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { walkPages } from "../api/walk-pages.js";
import { ADDRESS_FIELDS, PAGE, type Address, type StoredAddress } from "../contract/index.js";
import type { Deps } from "../deps.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { listedFinder, type ListedFinder } from "../ledger/listed-finder.js";
import { addressesListed } from "../ledger/listed-resources.js";
import { recordedLag } from "../ledger/service-lag.js";

/** An address with what people retype differently taken out: equal keys, the same address. */
export function sameAddressKey(address: Partial<Address>): string {
  return JSON.stringify(
    ADDRESS_FIELDS.map((f) => {
      const value = address[f];
      if (value === undefined || value === null) return "";
      if (typeof value !== "string") return String(value);
      const text = value.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
      // "SW1A 1AA" and "SW1A1AA" are the same post code.
      return f === "post_code" ? text.replace(/[\s-]/g, "") : text;
    }),
  );
}

/**
 * Finds the first stored address (lowest id) that is the same as the one given, if any. The stored addresses are read
 * once (every page) the first time one is looked for.
 */
export function storedAddressFinder(api: ApiClient, call: CallOptions) {
  let byKey: Promise<Map<string, StoredAddress>> | undefined;
  return async (address: Address): Promise<StoredAddress | undefined> => {
    byKey ??= readStored(api, call);
    return (await byKey).get(sameAddressKey(address));
  };
}

async function readStored(api: ApiClient, call: CallOptions): Promise<Map<string, StoredAddress>> {
  const byKey = new Map<string, StoredAddress>();
  // Every page, as `list addresses --all` reads them (its link checks, its guard against a looping `next`); the
  // largest page the contract allows, for fewer requests.
  await walkPages(api, {
    kind: "addresses",
    query: { limit: PAGE.limit.max },
    all: true,
    call,
    onPage: (answer) => {
      for (const stored of answer.data) {
        const key = sameAddressKey(stored as Partial<Address>);
        const first = byKey.get(key);
        if (!first || stored.id < first.id) byKey.set(key, stored);
      }
    },
  });
  return byKey;
}

/** Reads stored addresses back to settle rows in flight: a row matches the address its intent recorded as sent. */
export async function addressFinder(deps: Deps, call: CallOptions, ledger: InputLedger): Promise<ListedFinder> {
  const [api, connection] = await Promise.all([deps.api(), deps.connection()]);
  return listedFinder(addressesListed(api, call), {
    claimed: ledger.claimedIds(),
    sentOf: (r) => r.state.sent as Address[] | undefined,
    lagMs: await recordedLag(deps.env, connection.baseUrl),
    debug: (line) => deps.debug(line),
  });
}
