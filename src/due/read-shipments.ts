// Reading the shipments `due` looks at. The list has no filter and status has nothing to do with creation order, so
// every shipment that can still need a person must be read: by default those created since --created-after, found
// with the ledger's bisecting read (ledger/window-read.ts: the list's order learnt from ids and created_at, the first
// page created since found by doubling and bisecting, and every page read whole when the list shows no order), or with
// --all-history every page. The pages since are numbered, so they are asked for several at a time (`ahead`):
// each request goes through the API client, which waits out a 429 (Retry-After) and retries as for any read.
import type { ApiClient, CallOptions } from "../api/client-types.js";
import type { StoredShipment } from "../contract/index.js";
import { shipmentsListed } from "../ledger/listed-resources.js";
import { readSince } from "../ledger/window-read.js";
import { createdSince } from "./due-items.js";

export interface ShipmentsRead {
  shipments: StoredShipment[];
  /** List pages requested. */
  pages: number;
  /** Why every page was read, when the first page created since could not be bisected. */
  fullScan?: string;
}

export interface ReadShipmentsOptions {
  call: CallOptions;
  /** Created at or after this (ms on the service's clock), asked once page 1 has answered; undefined: every shipment. */
  since: () => number | undefined;
  /** Pages in flight at once. */
  ahead: number;
  debug?: (line: string) => void;
}

export async function readShipmentsSince(api: ApiClient, o: ReadShipmentsOptions): Promise<ShipmentsRead> {
  let since: number | undefined;
  const list = { ...shipmentsListed(api, o.call), ahead: o.ahead };
  const read = await readSince(list, () => (since = o.since()) ?? Number.NEGATIVE_INFINITY, o.debug);
  // The pages since begin a page early, and a full read holds everything: keep the shipments created since only,
  // each once (in a list newest first, a shipment created meanwhile pushes the others a place on).
  const byId = new Map<number, StoredShipment>();
  for (const s of read.items) if (createdSince(s, since)) byId.set(s.id, s);
  return { shipments: [...byId.values()], pages: read.pages, ...(read.fullScan ? { fullScan: read.fullScan } : {}) };
}
