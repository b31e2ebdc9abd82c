// Reading shipments back is how checkout knows what is paid: the service has no idempotency key, so the status of
// each shipment (Draft = unpaid, Confirmed or later = paid) is the only record of whether a charge happened.
import { withContext } from "./checkout-model.js";
import { ShipmentStatus, type StoredShipment } from "../contract/index.js";
import { ForbiddenError, NotFoundError } from "../api/api-errors.js";
import type { ApiClient } from "../api/client-types.js";
import type { Finder } from "../ledger/settle.js";
import { mapLimit } from "../batch/pool.js";

/** Reads at a time: enough to hide latency, few enough to stay polite to the service. */
const READ_CONCURRENCY = 4;

/** "unknown": the shipment could not be read, or is in a status that says neither. */
export type PaymentState = "paid" | "unpaid" | "unknown";

function paymentState(status: number): PaymentState {
  if (status === ShipmentStatus.Draft) return "unpaid";
  if (status >= ShipmentStatus.Confirmed && status <= ShipmentStatus.Completed) return "paid";
  return "unknown";
}

/** Every shipment, in the order given. A failed read stops the run (nothing has been paid yet), naming the id. */
export async function readShipmentsById(api: ApiClient, ids: readonly number[], signal: AbortSignal): Promise<StoredShipment[]> {
  return mapLimit(ids, READ_CONCURRENCY, async (id) => {
    try {
      return await api.getShipment(id, { signal });
    } catch (err) {
      throw withContext(err, `shipment ${id}`);
    }
  });
}

export type Reconciliation = Record<PaymentState, number[]>;

/** After a lost answer: which of `ids` the service now shows as paid. A read that fails leaves that id unknown. */
export async function reconcile(api: ApiClient, ids: readonly number[], signal: AbortSignal): Promise<Reconciliation> {
  const states = await mapLimit(ids, READ_CONCURRENCY, async (id): Promise<PaymentState> => {
    if (signal.aborted) return "unknown";
    try {
      return paymentState((await api.getShipment(id, { signal })).status);
    } catch {
      return "unknown";
    }
  });
  const result: Reconciliation = { paid: [], unpaid: [], unknown: [] };
  ids.forEach((id, i) => result[states[i]!].push(id));
  return result;
}

/**
 * Settles payments in flight (ledger/settle.ts): a row (a shipment id) is applied when the shipment is Confirmed or
 * later. A shipment this token cannot see was not paid by it. Any other failed read stops the run, as before pricing.
 */
export function paidFinder(api: ApiClient, signal: AbortSignal): Finder {
  return {
    async find(rows) {
      const paid = await mapLimit(rows, READ_CONCURRENCY, async (row) => {
        const id = Number(row.key);
        try {
          return paymentState((await api.getShipment(id, { signal })).status) === "paid";
        } catch (err) {
          if (err instanceof NotFoundError || err instanceof ForbiddenError) return false;
          throw withContext(err, `reading shipment ${id} back to settle its payment`);
        }
      });
      return new Map(rows.flatMap((row, i) => (paid[i] ? [[row.key, true] as const] : [])));
    },
  };
}
