// Reading shipments back to settle lost create requests (ledger/listed-finder.ts), and measuring on the first
// shipment a run creates how far the service's created_at lags its Date header (ledger/service-lag.ts), so a later
// read-back looks that much further back.
import type { CallOptions } from "../api/client-types.js";
import type { ShipmentOwn } from "../contract/index.js";
import type { Deps } from "../deps.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { listedFinder, type ListedFinder } from "../ledger/listed-finder.js";
import { shipmentsListed } from "../ledger/listed-resources.js";
import { keepLag, lagOf, recordedLag } from "../ledger/service-lag.js";
import { parseTimestamp } from "../output/time-format.js";

/** The finder for a ledger's shipment rows in flight: what a row sent is its intent's record. */
export async function shipmentFinder(deps: Deps, call: CallOptions, ledger: InputLedger): Promise<ListedFinder> {
  const [api, connection] = await Promise.all([deps.api(), deps.connection()]);
  return listedFinder(shipmentsListed(api, call), {
    claimed: ledger.claimedIds(),
    sentOf: (r) => r.state.sent as ShipmentOwn | undefined,
    lagMs: await recordedLag(deps.env, connection.baseUrl),
    debug: (line) => deps.debug(line),
  });
}

/** Measures the lag once, in the background; `done()` waits for it (a failed measure is simply not kept). */
export function lagMeter(deps: Deps, call: CallOptions): { measure(id: number, answeredAt: number): void; done(): Promise<void> } {
  let pending: Promise<void> | undefined;
  return {
    measure(id, answeredAt) {
      pending ??= (async () => {
        const [api, connection] = await Promise.all([deps.api(), deps.connection()]);
        const created = parseTimestamp((await api.getShipment(id, call)).created_at)?.getTime();
        if (created !== undefined) await keepLag(deps.env, connection.baseUrl, lagOf(created, answeredAt), deps.clock.now());
      })().catch((e: unknown) => deps.debug(`created_at lag not measured: ${(e as Error).message}`));
    },
    done: () => pending ?? Promise.resolve(),
  };
}
