// An organization's ledger in a team's PostgreSQL database (SHIPCTL_LEDGER=postgres://...): the same entries as the
// local store (local-store.ts), shared by every machine of the team, scoped by the service's base URL and the
// organization's name (SHIPCTL_ORGANIZATION).
//
// A claim is one INSERT ... ON CONFLICT DO UPDATE ... WHERE per batch: atomic in the database, committed before the
// call returns (so before its request may leave), and holding no session state, so it works through a pooler in
// transaction mode. A second machine's claim of the same key is refused, as a second run's is on one machine.
// Exclusion of an input is a lease row (postgres-leases.ts), never a session-level advisory lock, which dies with a
// pooled connection and not with its run. Every failure of the database becomes LedgerUnavailable: the run stops,
// nothing is sent without its entry, and nothing falls back to the local store.
import type { Pool } from "pg";
import { CliError, LedgerUnavailable } from "../errors.js";
import { checkWriteGuards } from "../api/write-gate.js";
import { thisRun, type Holder } from "./holder.js";
import { holderMayBeAlive, LeaseTable, type Scope } from "./postgres-leases.js";
import type { Claim, Entry, Exclusion, ExclusionWait, LedgerStore, Refused } from "./store.js";

/** Keys looked up by one statement of findAll: a 10,000-row sheet is 10 round trips. */
const FIND_ALL_KEYS = 1_000;

/** An entry as `ledger status` shows it: with its id (for `ledger unlock`) and who holds it. */
export interface HeldEntry extends Entry, Holder {
  id: number;
  since: Date;
}

export class PostgresStore implements LedgerStore {
  readonly shared = true;
  readonly leases: LeaseTable;
  private readonly me = thisRun();

  constructor(
    readonly where: string,
    private readonly pool: Pool,
    readonly scope: Scope,
    /** Makes a database failure the named error, its text without the password. */
    private readonly unavailable: (e: unknown) => LedgerUnavailable,
  ) {
    this.leases = new LeaseTable(pool, scope, where, (sql, params) => this.query(sql, params));
  }

  /** A query; any failure of the database (not an error of ours) stops the run as LedgerUnavailable. */
  async query<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw e instanceof CliError ? e : this.unavailable(e);
    }
  }

  async claim(claims: readonly Claim[]): Promise<Refused[]> {
    if (claims.length === 0) return [];
    const granted = new Set<string>();
    // A batch's claims share what they may replace (one kind of write); grouped anyway, so any batch is one statement per group.
    for (const over of ["failed", "settled"] as const) {
      const group = claims.filter((c) => (c.over ?? "failed") === over);
      if (group.length === 0) continue;
      const rows = await this.insert(
        group,
        `DO UPDATE
           SET input = EXCLUDED.input, state = EXCLUDED.state, machine = EXCLUDED.machine, os_user = EXCLUDED.os_user,
               pid = EXCLUDED.pid, command = EXCLUDED.command, since = now(), updated_at = now()
           WHERE (e.state->>'state' = 'in_flight' AND e.input = EXCLUDED.input)
              OR (e.state->>'state' <> 'in_flight' AND ($10 = 'settled' OR e.state->>'state' = 'failed'))
         RETURNING key`,
        over,
      );
      for (const r of rows) granted.add(r.key);
    }
    const refusedKeys = claims.map((c) => c.key).filter((k) => !granted.has(k));
    if (refusedKeys.length === 0) return [];
    const held = await this.entries("key = ANY($3::text[])", [refusedKeys]);
    const byKey = new Map(held.map((e) => [e.key, e]));
    // A refused key's entry removed meanwhile (`ledger unlock`) is reported as it was when refused: held elsewhere.
    return refusedKeys.map((key) => ({ key, entry: byKey.get(key) ?? { key, input: "another run", state: { state: "failed", error: "released meanwhile" } } }));
  }

  async record(given: readonly Entry[]): Promise<void> {
    // One statement may not update a row twice: a key's last state in the batch is the one that counts.
    const entries = [...new Map(given.map((e) => [e.key, e])).values()];
    if (entries.length === 0) return;
    // A run whose lease may have lapsed writes nothing more: another machine may have taken its entries over, and a
    // late outcome of this run (a stale read-back's "not applied") would undo what that machine recorded.
    checkWriteGuards();
    // Every write commits before it returns: a lost outcome would only leave its entry in flight, but PostgreSQL
    // gives no cheaper write than a committed one to a pooled connection. An entry of another input is left as it is,
    // whatever its state: only a claim moves a key to another input (claim, takeOver). Once a dead run's entry is
    // taken over (orphans.ts), that run's own rerun settles the same request from its record at the same moment,
    // and its outcome comes from a read-back that may be older than the taker's: "not applied" written over the
    // taker's "created" (the taker sent the rows meanwhile) would let the next claim send them again. A run whose
    // write is left out finds the entry as the store has it: its claim is refused, and its rerun takes that entry.
    await this.insert(entries, `DO UPDATE SET input = EXCLUDED.input, state = EXCLUDED.state, updated_at = now()
      WHERE e.input = EXCLUDED.input`);
  }

  /**
   * Adds settled entries the ledger lacks (`ledger push`); an entry it has is kept as it is, unless it is failed (the
   * service certainly did not apply it) and the pushed one is not: a row another machine failed to send and this one
   * sent (created, stored, paid) would otherwise be sent again by that machine's rerun. Returns the keys added.
   */
  async adopt(entries: readonly Entry[]): Promise<string[]> {
    const rows = await this.insert(entries, `DO UPDATE SET input = EXCLUDED.input, state = EXCLUDED.state,
      machine = EXCLUDED.machine, os_user = EXCLUDED.os_user, pid = EXCLUDED.pid, command = EXCLUDED.command, updated_at = now()
      WHERE e.state->>'state' = 'failed' AND EXCLUDED.state->>'state' <> 'failed' RETURNING key`);
    return rows.map((r) => r.key);
  }

  async find(key: string): Promise<Entry | undefined> {
    return (await this.findAll([key])).get(key);
  }

  /** A statement per FIND_ALL_KEYS keys, not one per key: each is a round trip to the server. */
  async findAll(keys: readonly string[]): Promise<Map<string, Entry>> {
    const out = new Map<string, Entry>();
    for (let i = 0; i < keys.length; i += FIND_ALL_KEYS) {
      for (const e of await this.entries("key = ANY($3::text[])", [keys.slice(i, i + FIND_ALL_KEYS)])) out.set(e.key, { key: e.key, input: e.input, state: e.state });
    }
    return out;
  }

  async inFlight(): Promise<Entry[]> {
    return (await this.heldEntries()).map((e) => ({ key: e.key, input: e.input, state: e.state }));
  }

  /**
   * Of these keys' entries in flight, those whose run is gone (holderMayBeAlive): a machine killed with requests in
   * flight. As they are now, for takeOver.
   */
  async orphaned(keys: readonly string[]): Promise<Entry[]> {
    const [held, leases] = await Promise.all([this.entries("key = ANY($3::text[]) AND state->>'state' = 'in_flight'", [keys]), this.leases.list()]);
    return held.filter((e) => !holderMayBeAlive(e, leases)).map((e) => ({ key: e.key, input: e.input, state: e.state }));
  }

  /**
   * Moves orphaned entries to this run, each only while it is still as `from` was read: of two machines taking over
   * the same entry, one gets it. Returns the keys taken; the rest are another run's now.
   */
  async takeOver(moves: ReadonlyArray<{ from: Entry; to: Entry }>): Promise<string[]> {
    const rows = await this.query<{ key: string }>(
      `UPDATE shipctl_entries AS e SET input = t.i, state = t.s, machine = $8, os_user = $9, pid = $10, command = $11, since = now(), updated_at = now()
       FROM unnest($3::text[], $4::text[], $5::jsonb[], $6::text[], $7::jsonb[]) AS t(k, old_i, old_s, i, s)
       WHERE e.base_url = $1 AND e.organization = $2 AND e.key = t.k AND e.input = t.old_i AND e.state = t.old_s
       RETURNING e.key`,
      [
        this.scope.baseUrl,
        this.scope.organization,
        moves.map((m) => m.from.key),
        moves.map((m) => m.from.input),
        moves.map((m) => JSON.stringify(m.from.state)),
        moves.map((m) => m.to.input),
        moves.map((m) => JSON.stringify(m.to.state)),
        this.me.machine,
        this.me.user,
        this.me.pid,
        this.me.command,
      ],
    );
    return rows.map((r) => r.key);
  }

  /** The entries in flight with their ids and holders (`ledger status`). */
  heldEntries(): Promise<HeldEntry[]> {
    return this.entries("state->>'state' = 'in_flight'", []);
  }

  /** An entry by its id (`ledger unlock`). */
  async entryById(id: number): Promise<HeldEntry | undefined> {
    return (await this.entries("id = $3", [id]))[0];
  }

  /** Removes an entry in flight (`ledger unlock`); false when it is no longer in flight. */
  async releaseEntry(id: number): Promise<boolean> {
    const rows = await this.query(
      "DELETE FROM shipctl_entries WHERE base_url = $1 AND organization = $2 AND id = $3 AND state->>'state' = 'in_flight' RETURNING id",
      [this.scope.baseUrl, this.scope.organization, id],
    );
    return rows.length > 0;
  }

  /** Whether any entry was ever recorded for this organization (a name no entry used yet is announced). */
  async hasEntries(): Promise<boolean> {
    const rows = await this.query("SELECT 1 FROM shipctl_entries WHERE base_url = $1 AND organization = $2 LIMIT 1", [this.scope.baseUrl, this.scope.organization]);
    return rows.length > 0;
  }

  /** The other organizations with entries for this base URL: named when a new one is announced (a typo?). */
  async otherOrganizations(): Promise<string[]> {
    const rows = await this.query<{ organization: string }>(
      "SELECT DISTINCT organization FROM shipctl_entries WHERE base_url = $1 AND organization <> $2 ORDER BY organization LIMIT 10",
      [this.scope.baseUrl, this.scope.organization],
    );
    return rows.map((r) => r.organization);
  }

  exclude(scope: string, what: string, wait?: ExclusionWait, flags?: readonly string[]): Promise<Exclusion> {
    return this.leases.take(scope, what, wait, flags);
  }

  refuseIfExcluded(scope: string, what: string, flags?: readonly string[]): Promise<void> {
    return this.leases.refuseIfHeld(scope, what, flags);
  }

  async close(): Promise<void> {
    await this.leases.releaseAll();
    await this.pool.end().catch(() => undefined);
  }

  /**
   * Inserts entries as rows held by this run; `onConflict` says what becomes of a key's row already there (`e`), with
   * `$10` and on: `more`.
   */
  private insert(entries: readonly Entry[], onConflict: string, ...more: unknown[]): Promise<Array<{ key: string }>> {
    const { machine, user, pid, command } = this.me;
    const lists = [entries.map((e) => e.key), entries.map((e) => e.input), entries.map((e) => JSON.stringify(e.state))];
    return this.query<{ key: string }>(
      `INSERT INTO shipctl_entries AS e (base_url, organization, key, input, state, machine, os_user, pid, command)
       SELECT $1, $2, k, i, s, $6, $7, $8, $9 FROM unnest($3::text[], $4::text[], $5::jsonb[]) AS t(k, i, s)
       ON CONFLICT (base_url, organization, key) ${onConflict}`,
      [this.scope.baseUrl, this.scope.organization, ...lists, machine, user, pid, command, ...more],
    );
  }

  private async entries(where: string, params: unknown[]): Promise<HeldEntry[]> {
    const rows = await this.query<Omit<HeldEntry, "id"> & { id: string }>(
      `SELECT id, key, input, state, machine, os_user AS "user", pid, command, since FROM shipctl_entries
       WHERE base_url = $1 AND organization = $2 AND ${where} ORDER BY since, id`,
      [this.scope.baseUrl, this.scope.organization, ...params],
    );
    // A bigint comes back as text.
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }
}
