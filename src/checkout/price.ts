// The price session (GET /api/v1/checkout): the service prices up to 10 shipments in US cents. Its answer is
// checked to hold a price for every shipment asked about, since a payment must never go out for an unseen price.
import { CliError } from "../errors.js";
import { formatUsd } from "../output/money.js";
import type { ApiClient } from "../api/client-types.js";
import { inGroups, sumCents, withContext, type CheckoutSession, type PricedShipment } from "./checkout-model.js";

/** Its `total` is the service's (US cents). */
export type PricedGroup = Pick<CheckoutSession, "shipments" | "total">;

/** What pricing needs: the client, the run's signal, and where a warning is said. */
export interface Pricing {
  api: ApiClient;
  signal: AbortSignal;
  warn: (line: string) => void;
}

type Titled = Pick<PricedShipment, "id" | "title">;

export async function priceGroup({ api, signal, warn }: Pricing, group: readonly Titled[]): Promise<PricedGroup> {
  const ids = group.map((s) => s.id);
  const answer = await api.priceShipments(ids, { signal });
  const shipments = group.map(({ id, title }) => {
    const cents = answer.shipments[String(id)];
    if (cents === undefined) {
      throw new CliError(`the price session did not return a price for shipment ${id}; nothing was charged`, {
        hint: "Check the shipment with `shipctl shipment get " + id + "`, then run the checkout again.",
      });
    }
    return { id, title, cents };
  });
  const sum = sumCents(shipments.map((s) => s.cents));
  if (sum !== answer.total) {
    warn(
      `warning: the service's total ${formatUsd(answer.total)} differs from the sum of its prices ${formatUsd(sum)}` +
        ` (shipments ${ids.join(", ")}); the service's total is shown and checked`,
    );
  }
  return { shipments, total: answer.total };
}

/** Every shipment priced, in sessions of at most 10 in the order given, none of them attempted yet. */
export async function priceSessions(pricing: Pricing, shipments: readonly Titled[]): Promise<CheckoutSession[]> {
  const sessions: CheckoutSession[] = [];
  for (const group of inGroups(shipments)) {
    try {
      const priced = await priceGroup(pricing, group);
      sessions.push({ number: sessions.length + 1, ...priced, outcome: "not-attempted" });
    } catch (err) {
      throw withContext(err, `pricing shipments ${group.map((s) => s.id).join(", ")} (nothing was charged)`);
    }
  }
  return sessions;
}
