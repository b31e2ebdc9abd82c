// GET, PUT and DELETE /_sandbox/clock: the organization's clock (its timestamps and the Date header of its answers),
// and how far behind it the records it writes are stamped (created_at_lag_ms).
import { body } from "../api/params.js";
import type { RequestContext } from "../request-context.js";
import { json, ruleFailed, type Reply } from "../http.js";
import { isServiceTime, serviceTimestamp, orgNow } from "../org-clock.js";
import { validate } from "../request-validation.js";
import { timestampField } from "./control-fields.js";
import { ClockChange } from "./control-schemas.js";

export function clockView(ctx: RequestContext) {
  const org = ctx.org;
  const now = orgNow(ctx.baseNow, org.clock);
  return {
    now: serviceTimestamp(now),
    now_ms: now,
    mode: org.clock.mode,
    offset_ms: org.clock.mode === "real" ? org.clock.offsetMs : now - ctx.baseNow().getTime(),
    created_at_lag_ms: org.createdAtLagMs,
  };
}

export async function setClock(ctx: RequestContext): Promise<Reply> {
  const change = validate(ClockChange, await body(ctx));
  const org = ctx.org;
  const base = ctx.baseNow().getTime();
  let clock = org.clock;
  if (change.at !== undefined) {
    const at = timestampField("at", change.at);
    clock = change.ticking ? { mode: "real", offsetMs: at - base } : { mode: "frozen", atMs: at };
  } else if (change.offset_ms !== undefined) {
    clock = { mode: "real", offsetMs: change.offset_ms };
  } else if (change.advance_ms !== undefined) {
    clock = clock.mode === "frozen" ? { mode: "frozen", atMs: clock.atMs + change.advance_ms } : { mode: "real", offsetMs: clock.offsetMs + change.advance_ms };
  }
  if (!isServiceTime(orgNow(ctx.baseNow, clock))) {
    const why = "The clock must stay within the years 0000 to 9999, which the service's timestamps can write";
    throw ruleFailed("clock", `${why}; move it less far.`);
  }
  org.clock = clock;
  // Kept until set again, whatever else the clock does: a lagging replica stays behind however time is moved.
  if (change.created_at_lag_ms !== undefined) org.createdAtLagMs = change.created_at_lag_ms;
  ctx.changed();
  return json(200, clockView(ctx));
}

/** Back to real time, with records stamped at it. */
export function resetClock(ctx: RequestContext): Reply {
  ctx.org.clock = { mode: "real", offsetMs: 0 };
  ctx.org.createdAtLagMs = 0;
  ctx.changed();
  return json(200, clockView(ctx));
}
