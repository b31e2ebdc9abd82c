// How far back the look before a create reads: SHIPCTL_LOOK_DAYS, else the profile's `lookDays`, else 7 days. A
// shipment another machine created earlier than that is no match: a gallery sending the same artwork again a month
// later means it. 0 turns the look off.
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { openConfigStore } from "../../config/store.js";
import { resolveSettings } from "../../config/settings.js";

export const LOOK_DAYS_DEFAULT = 7;
const LOOK_DAYS_MAX = 365;

export async function lookDays(deps: Pick<Deps, "env" | "globals">): Promise<number> {
  const raw = deps.env.SHIPCTL_LOOK_DAYS?.trim();
  if (raw) {
    const days = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(days <= LOOK_DAYS_MAX)) throw new UsageError(`SHIPCTL_LOOK_DAYS must be a whole number of days from 0 to ${LOOK_DAYS_MAX} (got "${raw}")`);
    return days;
  }
  const store = await openConfigStore(deps.env);
  const data = store.read();
  return resolveSettings({ globals: deps.globals, env: deps.env, data, configPath: store.path }).stored?.lookDays ?? LOOK_DAYS_DEFAULT;
}
