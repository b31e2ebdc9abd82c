// The store behind an organization's ledger: what the core needs of wherever the entries live, and nothing more. The
// local store (local-store.ts) keeps them in files in the state folder; a team's store (a later issue) keeps them in
// PostgreSQL. Each entry is one write that must not repeat, under a key that says what the write is (entry-keys.ts).
//
// A claim is an atomic "insert if absent": a key is claimed in flight by one run only, which alone may send its
// write. In SQL, an INSERT of a unique key (ON CONFLICT DO UPDATE ... WHERE the entry may be replaced, or is in flight
// for the same input, whose run holds it); in files, an exclusive create. Exclusion is per key (a claim) or per input (exclude()), never organization-wide: runs of other
// inputs never wait for each other.
import type { InFlight, RowState } from "./entry.js";

export interface Entry {
  key: string;
  /** The input whose run recorded it, as said in messages: a path, "stdin", "flags", "checkout", "report upload". */
  input: string;
  state: RowState;
}

export interface Claim extends Entry {
  state: InFlight;
  /**
   * Which settled entry of the same key this claim may replace: "failed" (not applied: sent again) by default;
   * "settled", any entry not in flight (an update sent again after an edit, a payment the service refused).
   */
  over?: "failed" | "settled";
}

/** A claim refused: the key's entry as it is (in flight for another run, or settled as done). */
export interface Refused {
  key: string;
  entry: Entry;
}

export interface Exclusion {
  release(): Promise<void>;
  /**
   * A shared store's lease only (postgres-leases.ts): throws LeaseLapsed unless the hold is surely still this run's,
   * since another machine may take over the entries in flight of a run whose lease expired. Asked before each request
   * (InputLedger), and by the HTTP layer before each attempt of a write, retries included (api/write-gate.ts).
   */
  checkHeld?(): void;
}

/** What a read-only ledger holds: nothing. */
export const NO_EXCLUSION: Exclusion = { release: async () => undefined };

/** Waiting for a run holding an input, instead of refusing at once (a checkout started twice by a script). */
export interface ExclusionWait {
  ms: number;
  /** Told once, when the wait begins: names the run that holds it. */
  say(holder: string): void;
}

export interface LedgerStore {
  /** Where the ledger is, said in messages (a folder, a database). */
  readonly where: string;
  /**
   * A team's store, shared by machines: another input's done entry is then the team's write of the same row (another
   * machine's copy of the sheet), taken as done rather than refused as a copy (copy-guard.ts).
   */
  readonly shared?: boolean;
  /**
   * A shared store only: of these keys' entries in flight, those whose run is gone (a machine killed with requests in
   * flight), as they are now. The next run to meet them takes them over (takeOver) and settles them as its own.
   */
  orphaned?(keys: readonly string[]): Promise<Entry[]>;
  /** Moves orphaned entries to this run, each only while still as `from` was read (one run gets it); returns the keys taken. */
  takeOver?(moves: ReadonlyArray<{ from: Entry; to: Entry }>): Promise<string[]>;
  /** Claims each key in flight (durably, before its request may leave); returns the claims refused. */
  claim(claims: readonly Claim[]): Promise<Refused[]>;
  /**
   * Records entries' states (outcomes; a settle time once the request's last byte left). `durable: false` for what
   * is safe to lose in a crash (an outcome lost leaves its entry in flight, settled by the next run). A shared store
   * leaves an entry of another input as it is: only a claim (or a takeover) moves a key to another input.
   */
  record(entries: readonly Entry[], o?: { durable?: boolean }): Promise<void>;
  find(key: string): Promise<Entry | undefined>;
  /**
   * The entries of many keys at once (a run's rows, before anything is sent), keyed by key; keys with none are left
   * out. As find() of each, at one moment: a key claimed after it is refused by its claim, as after find().
   */
  findAll(keys: readonly string[]): Promise<Map<string, Entry>>;
  /** Every entry in flight, whichever input's. */
  inFlight(): Promise<Entry[]>;
  /**
   * Holds `scope` (an input, or a key) against other runs until released; refuses (or waits) while another holds it.
   * `flags`: the run's --profile and --base-url (serviceFlags), repeated by a command the refusal prints.
   */
  exclude(scope: string, what: string, wait?: ExclusionWait, flags?: readonly string[]): Promise<Exclusion>;
  /** Refuses as exclude() would, without holding anything (a dry run writes nothing). */
  refuseIfExcluded(scope: string, what: string, flags?: readonly string[]): Promise<void>;
}
