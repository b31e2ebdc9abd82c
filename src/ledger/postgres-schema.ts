// The shared ledger's tables, created on first use and versioned: shipctl_schema holds one row per version applied.
// A database whose schema is newer than this shipctl knows is refused by name (LedgerSchemaNewer): an older shipctl
// writing into tables it does not understand could break the promise the newer one keeps.
//
// First use by two machines at once is serialised by a transaction-level advisory lock (pg_advisory_xact_lock), which
// is released when its transaction ends, so it works through a pooler in transaction mode (PgBouncer); shipctl takes
// no session-level lock anywhere.
import type { PoolClient } from "pg";
import { LedgerSchemaNewer } from "../errors.js";

/** Migrations, in order; version n is MIGRATIONS[n - 1]. Never edit one that was released: add the next. */
const MIGRATIONS: readonly string[] = [
  `CREATE SEQUENCE IF NOT EXISTS shipctl_ids;
   CREATE TABLE shipctl_entries (
     id bigint NOT NULL DEFAULT nextval('shipctl_ids') UNIQUE,
     base_url text NOT NULL,
     organization text NOT NULL,
     key text NOT NULL,
     input text NOT NULL,
     state jsonb NOT NULL,
     machine text NOT NULL,
     os_user text NOT NULL,
     pid integer NOT NULL,
     command text NOT NULL,
     since timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (base_url, organization, key)
   );
   CREATE INDEX shipctl_entries_in_flight ON shipctl_entries (base_url, organization) WHERE (state->>'state') = 'in_flight';
   CREATE TABLE shipctl_leases (
     id bigint NOT NULL DEFAULT nextval('shipctl_ids') UNIQUE,
     base_url text NOT NULL,
     organization text NOT NULL,
     scope text NOT NULL,
     what text NOT NULL,
     machine text NOT NULL,
     os_user text NOT NULL,
     pid integer NOT NULL,
     command text NOT NULL,
     since timestamptz NOT NULL DEFAULT now(),
     expires_at timestamptz NOT NULL,
     PRIMARY KEY (base_url, organization, scope)
   );
   CREATE TABLE shipctl_organizations (
     base_url text NOT NULL,
     organization text NOT NULL,
     first_seen timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (base_url, organization)
   );`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** An arbitrary constant naming shipctl's schema lock among the database's advisory locks. */
const SCHEMA_LOCK = 7_203_145_991;

export interface SchemaState {
  version: number;
  /** The shipctl that applied it ("0.1.0"). */
  by: string;
}

async function current(client: PoolClient): Promise<SchemaState | undefined> {
  const r = await client.query<SchemaState>("SELECT version, by FROM shipctl_schema ORDER BY version DESC LIMIT 1");
  return r.rows[0];
}

function refuseNewer(state: SchemaState): LedgerSchemaNewer {
  return new LedgerSchemaNewer(
    `the shared ledger's schema is version ${state.version} (written by shipctl ${state.by}), newer than this shipctl ${__SHIPCTL_VERSION__} knows (version ${SCHEMA_VERSION}). Nothing was sent.`,
    { hint: "Upgrade shipctl on this machine to the version your team uses; this shipctl never writes into a schema it does not know." },
  );
}

/** Makes sure the schema is this shipctl's, creating or upgrading it; refuses a newer one. */
export async function ensureSchema(client: PoolClient): Promise<SchemaState> {
  const seen = await current(client).catch((e: { code?: string }) => {
    // 42P01: the table does not exist yet (a new database).
    if (e.code === "42P01") return undefined;
    throw e;
  });
  if (seen !== undefined && seen.version > SCHEMA_VERSION) throw refuseNewer(seen);
  if (seen !== undefined && seen.version === SCHEMA_VERSION) return seen;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS shipctl_schema (version integer PRIMARY KEY, by text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    // Read again under the lock: another machine may have applied it meanwhile.
    const now = await current(client);
    if (now !== undefined && now.version > SCHEMA_VERSION) throw refuseNewer(now);
    for (let v = (now?.version ?? 0) + 1; v <= SCHEMA_VERSION; v++) {
      await client.query(MIGRATIONS[v - 1]!);
      await client.query("INSERT INTO shipctl_schema (version, by) VALUES ($1, $2)", [v, __SHIPCTL_VERSION__]);
    }
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
  return { version: SCHEMA_VERSION, by: __SHIPCTL_VERSION__ };
}
