// `shipctl sandbox --tick SECONDS`: the lifecycle moving by itself, as on the real service, so `watch` and `due` can be
// rehearsed without anyone moving shipments. Every period, each organization takes the step of POST /_sandbox/tick at
// its own clock; the --state file is written when anything moved.
import { orgNow, recordStamp, type BaseClock } from "./org-clock.js";
import type { SandboxState } from "./state.js";
import { tickOrg } from "./control/tick.js";

export interface TickSchedule {
  state: SandboxState;
  everyMs: number;
  baseNow: BaseClock;
  /** Called when a step moved something (writes the --state file). */
  changed(): void;
  log?: (line: string) => void;
}

/** Starts the schedule: every period, one step for every organization. The function returned stops it. */
export function scheduleTicks(schedule: TickSchedule): () => void {
  const timer = setInterval(() => {
    let moved = 0;
    for (const org of schedule.state.orgs.values()) {
      const now = orgNow(schedule.baseNow, org.clock);
      const step = tickOrg(schedule.state, org, now, recordStamp(now, org.createdAtLagMs));
      if (step.moved.length > 0) schedule.log?.(`tick: organization ${org.id}: ${step.moved.map((m) => `${m.id} ${m.from_name} → ${m.to_name}`).join(", ")}`);
      moved += step.moved.length;
    }
    if (moved > 0) schedule.changed();
  }, schedule.everyMs);
  return () => clearInterval(timer);
}
