// Enumerations named by the contract-notes ([guide] values; Completed = 12 is our [assume]).

export const ShipmentStatus = {
  Draft: 1,
  Confirmed: 2,
  Pending: 3,
  Allocated: 4,
  Scheduled: 5,
  Dispatched: 6,
  Delivered: 7,
  Filed: 8,
  DropOff: 9,
  Shipped: 10,
  Arrived: 11,
  /** [assume] the guide numbers Completed 11 as well, which collides with Arrived. */
  Completed: 12,
} as const;
export type ShipmentStatus = (typeof ShipmentStatus)[keyof typeof ShipmentStatus];

export const AddressVerificationStatus = {
  /** The service's upstream verifier was throttled: retry with backoff. */
  RateLimited: 0,
  Unverified: 1,
  Invalid: 2,
  Recommended: 3,
} as const;
export type AddressVerificationStatus = (typeof AddressVerificationStatus)[keyof typeof AddressVerificationStatus];

export const CheckoutSessionStatus = {
  /** An upstream rate look-up was throttled: retry with backoff. */
  RateLimited: 0,
  Failed: 1,
} as const;
export type CheckoutSessionStatus = (typeof CheckoutSessionStatus)[keyof typeof CheckoutSessionStatus];

/** Each value's name as people read it: its key, words apart ("RateLimited" is "Rate Limited"), or as `spelled`. */
function namesOf(values: Record<string, number>, spelled: Record<string, string> = {}): Record<number, string> {
  const name = (key: string) => spelled[key] ?? key.replace(/([a-z])([A-Z])/g, "$1 $2");
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [value, name(key)]));
}

const SHIPMENT_STATUS_NAMES = namesOf(ShipmentStatus, { DropOff: "Drop-Off" });
const VERIFICATION_STATUS_NAMES = namesOf(AddressVerificationStatus);
const CHECKOUT_STATUS_NAMES = namesOf(CheckoutSessionStatus);

function nameOr(table: Record<number, string>, value: number): string {
  return table[value] ?? `Unknown (${value})`;
}

export const shipmentStatusName = (s: number): string => nameOr(SHIPMENT_STATUS_NAMES, s);
export const verificationStatusName = (s: number): string => nameOr(VERIFICATION_STATUS_NAMES, s);
export const checkoutStatusName = (s: number): string => nameOr(CHECKOUT_STATUS_NAMES, s);

/** Status by name, forgiving case, spaces and dashes ("drop off", "Drop-Off", "dropoff"). */
export function shipmentStatusFromName(name: string): ShipmentStatus | undefined {
  const key = (text: string) => text.toLowerCase().replace(/[\s_-]/g, "");
  const found = Object.entries(SHIPMENT_STATUS_NAMES).find(([, label]) => key(label) === key(name));
  return found && (Number(found[0]) as ShipmentStatus);
}
