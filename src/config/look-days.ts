// How far back the look before a create reads (shipments/look/): SHIPCTL_LOOK_DAYS, else the profile's `lookDays`
// (`config set lookDays N`), else 7 days. A shipment another machine created earlier than that is no match: a gallery
// sending the same artwork again a month later means it. 0 turns the look off.
import { UsageError } from "../errors.js";
import type { StoredProfile } from "./schema.js";

export const LOOK_DAYS_DEFAULT = 7;
export const LOOK_DAYS_MAX = 365;

/** A whole number of days from 0 to LOOK_DAYS_MAX, or undefined. */
export function parseLookDays(text: string): number | undefined {
  const t = text.trim();
  const days = /^\d+$/.test(t) ? Number(t) : NaN;
  return days <= LOOK_DAYS_MAX ? days : undefined;
}

export function resolveLookDays(env: NodeJS.ProcessEnv, stored: StoredProfile | undefined): { days: number; source: "env" | "profile" | "default" } {
  const raw = env.SHIPCTL_LOOK_DAYS?.trim();
  if (raw) {
    const days = parseLookDays(raw);
    if (days === undefined) throw new UsageError(`SHIPCTL_LOOK_DAYS must be a whole number of days from 0 to ${LOOK_DAYS_MAX} (got "${raw}")`);
    return { days, source: "env" };
  }
  if (stored?.lookDays !== undefined) return { days: stored.lookDays, source: "profile" };
  return { days: LOOK_DAYS_DEFAULT, source: "default" };
}
