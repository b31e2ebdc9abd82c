// The one place the store of an organization's ledger is chosen: the local store (files in the state folder) unless
// the connection's ledger setting (config/ledger-setting.ts) names a PostgreSQL database. A shared ledger is opened once per process (one pool, one ledger line),
// checked before anything is sent: reachable, its schema this shipctl's, the organization named. A database that
// cannot be reached stops the run (LedgerUnavailable): never a silent fall back to the local store, whose entries the
// team cannot see.
import { LedgerUnavailable } from "../errors.js";
import type { LedgerSettings } from "../deps.js";
import { describeLedger, redactLedgerSecrets, type SharedSettings } from "./ledger-settings.js";
import { LocalStore } from "./local-store.js";
import { ensureSchema, type SchemaState } from "./postgres-schema.js";
import { PostgresStore } from "./postgres-store.js";
import type { LedgerStore } from "./store.js";

export interface StorePlace {
  /** The organization's ledger folder in the state folder (the local store's place; input records stay there). */
  dir: string;
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  /** Where the ledger line and the announcement of a new organization go: stderr unless given. */
  say?: (text: string) => void;
}

/** The base URL as the ledger scopes entries by it (organizationId names its folder by it too). */
export function normalBaseUrl(url: string): string {
  return url.replace(/\/+$/, "").toLowerCase();
}

/** How long a connection to the shared ledger is waited for before the run stops. */
const CONNECT_TIMEOUT_MS = 10_000;

const opened = new Map<string, Promise<SharedLedger>>();

export interface SharedLedger {
  store: PostgresStore;
  schema: SchemaState;
}

export async function openLedgerStore(settings: LedgerSettings, place: StorePlace): Promise<LedgerStore> {
  if (settings.kind === "local") return new LocalStore(place.dir);
  return (await openSharedLedger(settings, place)).store;
}

/** The shared ledger, opened once per process for a base URL and organization. */
export function openSharedLedger(settings: SharedSettings, place: StorePlace): Promise<SharedLedger> {
  const id = `${settings.url}\n${settings.organization}\n${normalBaseUrl(place.baseUrl)}`;
  let ledger = opened.get(id);
  if (ledger === undefined) {
    ledger = connectSharedLedger(settings, place);
    opened.set(id, ledger);
    ledger.catch(() => opened.delete(id));
  }
  return ledger;
}

/** A new connection to the shared ledger (openSharedLedger keeps one per process; tests open two: two machines). */
export async function connectSharedLedger(settings: SharedSettings, place: StorePlace): Promise<SharedLedger> {
  const where = describeLedger(settings, place.env);
  const unavailable = (e: unknown) =>
    new LedgerUnavailable(`the shared ledger (${where}) did not answer: ${redactLedgerSecrets(e instanceof Error ? e.message || String(e) : String(e), settings, place.env)}. The run stopped; no request was sent without its entry committed in the ledger.`, {
      hint: "Check that the database is up and reachable from this machine (the ledger setting or SHIPCTL_LEDGER, PGHOST...), then run the same command again: it settles what was in flight. shipctl never falls back to the local ledger, which the team cannot see (docs/team.md).",
    });
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: settings.url, max: 4, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, allowExitOnIdle: true, application_name: "shipctl" });
  // An idle connection the server closes (a restart) is reported here; the next query then fails and is named.
  pool.on("error", () => undefined);
  let schema: SchemaState;
  try {
    const client = await pool.connect();
    try {
      schema = await ensureSchema(client);
    } finally {
      client.release();
    }
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e instanceof LedgerUnavailable || (e instanceof Error && e.name === "LedgerSchemaNewer") ? e : unavailable(e);
  }
  const store = new PostgresStore(where, pool, { baseUrl: normalBaseUrl(place.baseUrl), organization: settings.organization }, unavailable);
  const say = place.say ?? ((text: string) => void process.stderr.write(text));
  say(`ledger: ${where}\n`);
  if (!(await store.hasEntries())) {
    const others = await store.otherOrganizations();
    say(
      `organization ${settings.organization} is new in this ledger: no entry has used it yet for ${place.baseUrl}.` +
        (others.length > 0 ? ` Organizations with entries there: ${others.join(", ")}. If yours is one of them, fix the organization setting (or SHIPCTL_ORGANIZATION) before sending.` : "") +
        "\n",
    );
  }
  return { store, schema };
}
