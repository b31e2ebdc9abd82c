// The sandbox's price formula (documented in docs/sandbox.md), in whole US cents so no rounding can drift:
//   price = base(service) + length x height x depth x rate(service) + insurance
//   insurance = 1.5 % of the value, rounded up to a whole cent = ceil(value_usd x 150 / 100)
import { SANDBOX_SERVICES } from "../contract/index.js";
import type { ShipmentRecord } from "./model.js";

export interface ServiceRate {
  /** Cents per shipment. */
  base: number;
  /** Cents per cubic inch of the box. */
  perCubicInch: number;
}

/** Keyed by Service value (SANDBOX_SERVICES: 1 Standard, 2 Express, 3 White Glove). */
export const SERVICE_RATES: Readonly<Record<number, ServiceRate>> = {
  1: { base: 2500, perCubicInch: 1 },
  2: { base: 4500, perCubicInch: 2 },
  3: { base: 9500, perCubicInch: 3 },
};

/** Insurance in basis points of the value (150 = 1.5 %). */
export const INSURANCE_BASIS_POINTS = 150;

for (const service of SANDBOX_SERVICES) {
  if (!SERVICE_RATES[service.id]) throw new Error(`pricing: no rate for sandbox service ${service.id}`);
}

export type Priceable = Pick<ShipmentRecord, "value" | "length" | "height" | "depth" | "service">;

export function priceCents(s: Priceable): number {
  const rate = SERVICE_RATES[s.service];
  if (!rate) throw new Error(`pricing: unknown service ${s.service}`);
  // value is whole dollars: cents x basis points / 10,000 = value x 100 x 150 / 10,000 = value x 150 / 100.
  const insurance = Math.ceil((s.value * INSURANCE_BASIS_POINTS) / 100);
  return rate.base + s.length * s.height * s.depth * rate.perCubicInch + insurance;
}
