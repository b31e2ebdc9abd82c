// Exclusion of an input (or a key) in a shared ledger: a lease row naming its holder (machine, user, pid, command,
// since) with an expiry the holder renews while it runs. A run killed, or a machine gone, stops renewing, so its
// lease expires and the next run takes it over: no lock outlives its run by more than LEASE_MS, and none depends on a
// database session (a pooler in transaction mode hands each statement any connection). A lease of this machine whose
// process is dead is taken over at once, as the local store's lock is (lock.ts).
import type { Pool } from "pg";
import { guardWrites } from "../api/write-gate.js";
import { LeaseLapsed, UsageError } from "../errors.js";
import { formatTimestamp } from "../output/time-format.js";
import { aliveHere, describeHolderRun, thisRun, type Holder } from "./holder.js";
import type { Exclusion, ExclusionWait } from "./store.js";

/** How long a lease lasts without renewal; renewed every third of it while its run lives. */
export const LEASE_MS = 60_000;
const RETRY_MS = 200;
/**
 * How old a lease's last confirmed renewal may be while its run still sends. Confirmed at a moment T (measured before
 * the renewal was sent), the lease lasts until T + LEASE_MS at least; the last third is left for a request checked
 * just before that to leave, and for a slow clock. Past it, another machine may take this run's entries over
 * (holderMayBeAlive), so no request of it may leave: it would be sent twice.
 */
export const SEND_MARGIN_MS = (LEASE_MS * 2) / 3;

/** A lease this run holds: when it was last confirmed ours. */
interface Held {
  timer: NodeJS.Timeout;
  /** Removes its check of every write's attempts (api/write-gate.ts). */
  unguard: () => void;
  confirmed: Moment;
  /** A renewal updated nothing: the lease had expired, or another run took it over or released it (`ledger unlock`). */
  lost: boolean;
}

/** Where a shared ledger's rows belong: the service's base URL (normalised as organizationId does) and the organization. */
export interface Scope {
  baseUrl: string;
  organization: string;
}

export interface Lease extends Holder {
  id: number;
  scope: string;
  what: string;
  since: Date;
  expiresAt: Date;
  /** Past its expiry: its holder stopped renewing it (dead, or cut off from the database). */
  expired: boolean;
}

interface Moment {
  at: Date;
  ms: number;
}

/** Now, on the wall clock and the monotonic one. */
function now(): Moment {
  return { at: new Date(), ms: performance.now() };
}

/**
 * How long ago `since` was, by the longer of the two clocks: the monotonic one stands still while the machine sleeps
 * (a laptop's lid closed), the wall clock may be set back. Either running long only refuses a request sooner.
 */
function ageOf(since: Moment): number {
  const t = now();
  return Math.max(t.at.getTime() - since.at.getTime(), t.ms - since.ms);
}

type Query = <R extends object>(sql: string, params?: unknown[]) => Promise<R[]>;

/**
 * Whether the run that holds an entry may still be alive: a live process of this machine, or a process elsewhere
 * whose lease is not expired (a run holds one while it may send; a dead one's expires within LEASE_MS). A process of
 * this machine that is gone is dead whatever its lease says.
 */
export function holderMayBeAlive(holder: Pick<Holder, "machine" | "pid">, leases: readonly Lease[]): boolean {
  const here = aliveHere(holder);
  if (here !== undefined) return here;
  return leases.some((l) => !l.expired && l.machine === holder.machine && l.pid === holder.pid);
}

export class LeaseTable {
  private readonly me = thisRun();
  private readonly held = new Map<number, Held>();

  constructor(
    private readonly pool: Pool,
    private readonly scope: Scope,
    private readonly where: string,
    private readonly query: Query,
  ) {}

  async take(scope: string, what: string, wait?: ExclusionWait, flags: readonly string[] = []): Promise<Exclusion> {
    const started = Date.now();
    let waiting = false;
    for (;;) {
      const asked = now();
      const [taken] = await this.query<{ id: string }>(
        `INSERT INTO shipctl_leases AS l (base_url, organization, scope, what, machine, os_user, pid, command, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9 * interval '1 millisecond')
         ON CONFLICT (base_url, organization, scope) DO UPDATE
           SET id = nextval('shipctl_ids'), what = EXCLUDED.what, machine = EXCLUDED.machine, os_user = EXCLUDED.os_user,
               pid = EXCLUDED.pid, command = EXCLUDED.command, since = now(), expires_at = EXCLUDED.expires_at
           WHERE l.expires_at < now()
         RETURNING id`,
        [this.scope.baseUrl, this.scope.organization, scope, what, this.me.machine, this.me.user, this.me.pid, this.me.command, LEASE_MS],
      );
      if (taken !== undefined) return this.hold(Number(taken.id), what, asked);
      const holder = await this.holderOf(scope);
      if (holder === undefined) continue;
      if (aliveHere(holder) === false) {
        // This machine's run that held it is dead: taken over now rather than after its expiry.
        await this.query("DELETE FROM shipctl_leases WHERE id = $1", [holder.id]);
        continue;
      }
      if (wait && Date.now() - started < wait.ms) {
        if (!waiting) wait.say(describeHolderRun(holder));
        waiting = true;
        await new Promise((r) => setTimeout(r, RETRY_MS));
        continue;
      }
      throw this.heldBy(holder, what, flags, waiting ? wait!.ms : undefined);
    }
  }

  async refuseIfHeld(scope: string, what: string, flags: readonly string[] = []): Promise<void> {
    const holder = await this.holderOf(scope);
    if (holder !== undefined && !holder.expired && aliveHere(holder) !== false) throw this.heldBy(holder, what, flags);
  }

  async list(): Promise<Lease[]> {
    return this.select("TRUE", []);
  }

  async byId(id: number): Promise<Lease | undefined> {
    return (await this.select("id = $3", [id]))[0];
  }

  /** Removes a lease (`ledger unlock`); false when it was gone already. */
  async release(id: number): Promise<boolean> {
    return (await this.query("DELETE FROM shipctl_leases WHERE id = $1 RETURNING id", [id])).length > 0;
  }

  async releaseAll(): Promise<void> {
    await Promise.all([...this.held.keys()].map((id) => this.drop(id)));
  }

  private hold(id: number, what: string, asked: Moment): Exclusion {
    const checkHeld = () => this.checkHeld(held, what);
    const held: Held = { timer: setInterval(() => this.renew(id, held), LEASE_MS / 3), unguard: guardWrites(checkHeld), confirmed: asked, lost: false };
    // Unref'd, so a lease never keeps a finished process alive.
    held.timer.unref();
    this.held.set(id, held);
    return { release: () => this.drop(id), checkHeld };
  }

  /**
   * Renewed while the run lives; a renewal that fails (the database unreachable) leaves the last confirmation as it
   * was. An expired lease is never renewed, even while no other run has taken it: another machine may have taken this
   * run's entries over meanwhile (holderMayBeAlive), so the lease is lost and nothing more may be sent.
   */
  private renew(id: number, held: Held): void {
    const asked = now();
    this.pool.query("UPDATE shipctl_leases SET expires_at = now() + $2 * interval '1 millisecond' WHERE id = $1 AND expires_at >= now() RETURNING id", [id, LEASE_MS]).then(
      (r) => {
        if (r.rowCount === 0) held.lost = true;
        else if (!held.lost && asked.ms > held.confirmed.ms) held.confirmed = asked;
      },
      () => undefined,
    );
  }

  /** Refuses (LeaseLapsed) unless the lease is surely still this run's: no request of a lapsed lease may leave. */
  private checkHeld(held: Held, what: string): void {
    if (!held.lost && ageOf(held.confirmed) < SEND_MARGIN_MS) return;
    // In UTC and saying so, as every time shipctl shows: the local zone's time of day, unnamed, misled.
    const since = formatTimestamp(held.confirmed.at).slice(11);
    const why = held.lost ? `expired, or was taken over or released by another run (last confirmed at ${since})` : `could not be renewed since ${since}`;
    throw new LeaseLapsed(`this run's lease on ${what} in the shared ledger (${this.where}) ${why}: another machine may take over its rows in flight, so no more requests were sent. Rows recorded in flight stay so, not sent by this run.`, {
      hint: "Check that the database is reachable from this machine (and that it stays awake while shipctl runs), then run the same command again: it settles these rows first, and nothing is sent twice.",
    });
  }

  private async drop(id: number): Promise<void> {
    const held = this.held.get(id);
    clearInterval(held?.timer);
    held?.unguard();
    if (!this.held.delete(id)) return;
    await this.query("DELETE FROM shipctl_leases WHERE id = $1", [id]);
  }

  private async holderOf(scope: string): Promise<Lease | undefined> {
    return (await this.select("scope = $3", [scope]))[0];
  }

  private async select(where: string, params: unknown[]): Promise<Lease[]> {
    const rows = await this.query<Omit<Lease, "id"> & { id: string }>(
      `SELECT id, scope, what, machine, os_user AS "user", pid, command, since, expires_at AS "expiresAt",
         expires_at < now() AS expired
       FROM shipctl_leases WHERE base_url = $1 AND organization = $2 AND ${where} ORDER BY since, id`,
      [this.scope.baseUrl, this.scope.organization, ...params],
    );
    // A bigint comes back as text.
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** `flags`: the refused run's --profile and --base-url, so the printed `ledger unlock` reaches this ledger. */
  private heldBy(holder: Lease, what: string, flags: readonly string[], waitedMs?: number): UsageError {
    const unlock = ["shipctl ledger unlock", String(holder.id), ...flags].join(" ");
    return new UsageError(`another shipctl run is working on ${what} (${describeHolderRun(holder)}; shared ledger ${this.where})${waitedMs !== undefined ? `; waited ${waitedMs / 1000} s for it` : ""}`, {
      hint: `Wait for it to finish, then run again. If that run is dead, its lease expires within ${LEASE_MS / 1000} s of its last renewal; \`${unlock}\` releases it once expired.`,
    });
  }
}
