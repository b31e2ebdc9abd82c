// The two lists a lost create request is looked for in, as listed-finder.ts reads them: shipments (matched on their
// own fields, contract/fields.ts) and addresses (matched on every field of the address sent). `due` and `watch` read
// the shipments' list through the same pages.
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { holdsAddress, holdsShipmentFields, type Address, type ShipmentOwn, type StoredAddress, type StoredShipment } from "../contract/index.js";
import { parseTimestamp } from "../output/time-format.js";
import type { ListedResource } from "./listed-finder.js";

/** The largest page the contract allows: fewer requests per read-back. */
const PAGE_LIMIT = 50;

export function shipmentsListed(api: ApiClient, call: CallOptions): ListedResource<StoredShipment, ShipmentOwn> {
  return {
    page: async (n) => {
      const page = await api.listShipments({ page: n, limit: PAGE_LIMIT }, call);
      return { items: page.data, next: page.links.next !== null };
    },
    id: (s) => s.id,
    createdAt: (s) => parseTimestamp(s.created_at)?.getTime(),
    matches: (s, sent) => (s.title !== sent.title ? false : holdsShipmentFields(s, sent)),
    detail: (id) => api.getShipment(id, call),
    offsetMs: () => api.serviceClockOffsetMs?.(),
  };
}

/** An address row may have been sent as written or, when a recommended revision was accepted, as revised. */
export function addressesListed(api: ApiClient, call: CallOptions): ListedResource<StoredAddress, Address[]> {
  return {
    page: async (n) => {
      const page = await api.listAddresses({ page: n, limit: PAGE_LIMIT }, call);
      return { items: page.data, next: page.links.next !== null };
    },
    id: (a) => a.id,
    createdAt: (a) => parseTimestamp(a.created_at)?.getTime(),
    matches: (a, forms) => forms.some((f) => holdsAddress(a, f)),
    detail: (id) => api.getAddress(id, call),
    offsetMs: () => api.serviceClockOffsetMs?.(),
  };
}
