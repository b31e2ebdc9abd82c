// Settling writes in flight: requests recorded before sending whose answers never came. The service is read back
// (a finder per resource: the shipments or addresses list, a shipment's status for reports and payments) and each
// request is decided as a whole, since the service applies a request whole:
//   every row found                      -> applied (their ids recorded)
//   some rows found                      -> uncertain: never resent; reported so a person can check
//   no row found, past its settle time   -> not applied: safe to send again
//   no row found, before its settle time -> still in flight: the service may still be applying it
// Before a request's settle time "not found" proves nothing, so a rerun waits (a countdown on stderr), reading back
// now and then, until every request is found or past its settle time; with --no-wait it stops at once and says when
// a rerun will settle them.
import type { InFlight } from "./entry.js";
import { formatDuration, formatSettleTime } from "../output/time-format.js";
import { counted } from "../output/counted.js";

export interface FlightRow {
  key: string;
  state: InFlight;
}

/** Reads the service: which of these rows it shows as applied (the id of what they created, or true). */
export interface Finder {
  find(rows: readonly FlightRow[]): Promise<Map<string, number | true>>;
  /** A wider look, asked before rows are called "not applied" when the first look may have been too narrow. */
  findWider?(rows: readonly FlightRow[]): Promise<Map<string, number | true>>;
}

export type Settlement =
  | { state: "applied"; id?: number }
  | { state: "not-applied" }
  | { state: "in-flight"; settleAt: Date }
  | { state: "uncertain"; reason: string };

export interface SettleOptions {
  now(): Date;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal: AbortSignal;
  /** Wait for requests still in flight (false with --no-wait, and for a run's own lost answers). */
  wait: boolean;
  /** A line for stderr (a countdown on a terminal is drawn by `progress`). */
  say(text: string): void;
  /** What one row is, in messages: "row", "item", "report", "shipment", "address". */
  noun: string;
  /** Redraws a one-line countdown on a terminal; undefined elsewhere (a line per read-back instead). */
  progress?: { show(text: string): void; clear(): void };
}

/** Reads between two read-backs while waiting: soon at first, then less often. */
const POLL_MS = [2_000, 4_000, 8_000, 15_000, 30_000];

export async function settle(rows: readonly FlightRow[], finder: Finder, o: SettleOptions): Promise<Map<string, Settlement>> {
  const result = new Map<string, Settlement>();
  const settleAtOf = (g: readonly FlightRow[]) => Math.max(...g.map((r) => Date.parse(r.state.settle_at)));
  let pending = [...rows];
  for (let poll = 0; pending.length > 0; poll++) {
    const found = await finder.find(pending);
    const now = o.now().getTime();
    const due = (g: FlightRow[]) => g.every((r) => !found.has(r.key)) && now >= settleAtOf(g);
    const notFoundDue = byRequest(pending).filter(due).flat();
    if (notFoundDue.length > 0 && finder.findWider) for (const [k, v] of await finder.findWider(notFoundDue)) found.set(k, v);
    const still: FlightRow[] = [];
    for (const group of byRequest(pending)) {
      const hits = group.filter((r) => found.has(r.key));
      if (hits.length === group.length) for (const r of group) result.set(r.key, applied(found.get(r.key)!));
      else if (hits.length > 0) {
        const reason = `its request's answer was lost and only ${hits.length} of its ${counted(group.length, o.noun)} were found on the service; not resent`;
        for (const r of group) result.set(r.key, found.has(r.key) ? applied(found.get(r.key)!) : { state: "uncertain", reason });
      } else if (now >= settleAtOf(group)) for (const r of group) result.set(r.key, { state: "not-applied" });
      else still.push(...group);
    }
    pending = still;
    if (pending.length === 0) break;
    const until = settleAtOf(pending);
    let stopped = !o.wait || o.signal.aborted;
    if (!stopped) {
      if (poll === 0) {
        o.say(
          `${counted(pending.length, o.noun)} ${pending.length === 1 ? "was" : "were"} sent by an earlier run whose answer never came, and the service ` +
            `does not show ${pending.length === 1 ? "it" : "them"} yet; it may still be applying ${pending.length === 1 ? "it" : "them"} until ` +
            `${formatSettleTime(new Date(until), { clock: true })}. Waiting and reading back now and then (Ctrl-C to stop; --no-wait to exit at once).\n`,
        );
      }
      const soonest = Math.min(...pending.map((r) => Date.parse(r.state.settle_at)));
      const next = Math.min(now + POLL_MS[Math.min(poll, POLL_MS.length - 1)]!, soonest + 1000);
      // Ctrl-C while waiting stops the wait: what is still in flight is said as such.
      stopped = await waitUntil(next, until, o).then(() => false, () => true);
    }
    if (stopped) {
      for (const r of pending) result.set(r.key, { state: "in-flight", settleAt: new Date(r.state.settle_at) });
      break;
    }
  }
  o.progress?.clear();
  return result;
}

/** Sleeps until `next`, showing the time left until `until` once a second on a terminal, or once elsewhere. */
async function waitUntil(next: number, until: number, o: SettleOptions): Promise<void> {
  if (!o.progress) {
    o.say(`  not found yet; reading back again in ${formatDuration(next - o.now().getTime())} (settled by ${formatDuration(until - o.now().getTime())} from now)\n`);
    await o.sleep(Math.max(0, next - o.now().getTime()), o.signal);
    return;
  }
  for (let left = next - o.now().getTime(); left > 0; left = next - o.now().getTime()) {
    o.progress.show(`in flight: reading back again in ${formatDuration(left)}; settled in ${formatDuration(until - o.now().getTime())}`);
    await o.sleep(Math.min(1000, left), o.signal);
  }
}

function applied(found: number | true): Settlement {
  return found === true ? { state: "applied" } : { state: "applied", id: found };
}

/** Rows grouped by the request that carried them. */
function byRequest(rows: readonly FlightRow[]): FlightRow[][] {
  const groups = new Map<number, FlightRow[]>();
  for (const r of rows) {
    const g = groups.get(r.state.attempt);
    if (g) g.push(r);
    else groups.set(r.state.attempt, [r]);
  }
  return [...groups.values()];
}
