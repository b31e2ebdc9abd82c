// Whose records a ledger book holds. A book is scoped by profile and base URL, which do not name an organization:
// another organization's token on the same URL, or an in-memory sandbox restarted on the same port, would find rows
// recorded as created (with ids that are not theirs), skip them, and exit 0 with nothing created. So each target
// records the token's owner mark: a slow, salted hash (scrypt, a salt per book), never the token. A fast hash would
// let anyone holding a book test guessed tokens offline; the salt is in the book, so the mark is checked the same
// way when the book is read on another machine. When a run's token does not match the mark, or the book predates
// marks, the recorded ids are checked against the service before any is trusted: if they exist with the same titles
// (names for addresses) it is the same organization with a new token, and the new mark is recorded; otherwise the
// run stops before sending anything (exit 2).
import { createHash, randomBytes, scrypt } from "node:crypto";
import { ForbiddenError, NotFoundError } from "../api/api-errors.js";
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { UsageError } from "../errors.js";

/** How many recorded ids are read back at most: spread over the journal, enough to tell another organization. */
export const OWNER_SAMPLE = 20;

/** A token's mark in one book. `legacy` is shipctl 0.1's bare SHA-256 prefix, read from books written before marks. */
export type OwnerMark = { salt: string; hash: string } | { legacy: string };

/** scrypt's interactive cost (N = 2^14): about 60 ms a check here, once per book a run opens. */
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function scryptHash(token: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(token, Buffer.from(salt, "base64url"), KEY_BYTES, SCRYPT, (err, key) => (err ? reject(err) : resolve(key.toString("base64url"))));
  });
}

/** A new mark for `token`, with a salt of its own. */
export async function markFor(token: string): Promise<OwnerMark> {
  const salt = randomBytes(16).toString("base64url");
  return { salt, hash: await scryptHash(token, salt) };
}

/** Whether `token` made `mark`. */
export async function tokenMatches(token: string, mark: OwnerMark | undefined): Promise<boolean> {
  if (mark === undefined) return false;
  if ("legacy" in mark) return createHash("sha256").update(token).digest("hex").slice(0, 16) === mark.legacy;
  return (await scryptHash(token, mark.salt)) === mark.hash;
}

/** A mark as read from a file: anything else is no mark (the records are then checked as if none were recorded). */
export function readMark(value: unknown): OwnerMark | undefined {
  if (typeof value === "string" && /^[0-9a-f]{16}$/.test(value)) return { legacy: value };
  if (typeof value !== "object" || value === null) return undefined;
  const { salt, hash } = value as { salt?: unknown; hash?: unknown };
  return typeof salt === "string" && typeof hash === "string" ? { salt, hash } : undefined;
}

/** What the owner check needs of a book. */
export interface OwnedJournal {
  readonly path: string;
  readonly ownerConfirmed: boolean;
  claimedIds(): Set<number>;
  acceptOwner(): void;
}

/** A record to check: its id, and the title (or name) the input gives it when the input still has that row. */
export interface OwnedRecord {
  id: number;
  label?: string;
}

export type OwnedKind = "shipment" | "address";

/** Reads a stored item's title (shipments) or name (addresses); undefined when this token cannot see it. */
export function ownedReader(api: ApiClient, kind: OwnedKind, call: CallOptions): (id: number) => Promise<string | undefined> {
  return async (id) => {
    try {
      return kind === "shipment" ? (await api.getShipment(id, call)).title : (await api.getAddress(id, call)).name;
    } catch (e) {
      if (e instanceof NotFoundError || e instanceof ForbiddenError) return undefined;
      throw e;
    }
  };
}

function sameLabel(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  return norm(a) === norm(b);
}

/** Up to `n` records spread evenly over the list (first and last included). */
function spread<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.round((i * (list.length - 1)) / (n - 1))]!);
}

/**
 * Makes sure the journal's records are this token's before the run trusts any of them. `records` gives the recorded
 * ids with the labels the input gives them (read only when a check is needed); ids recorded for rows the input no
 * longer has are checked for existence only.
 */
export async function confirmJournalOwner(
  journal: OwnedJournal,
  options: {
    kind: OwnedKind;
    records: () => Promise<OwnedRecord[]>;
    /**
     * The stored item's title (or name); undefined when this token cannot see it; `{ mismatch }` when it exists but
     * contradicts the record (e.g. a report recorded as stored that the shipment does not hold), said after its id.
     */
    read: (id: number) => Promise<string | { mismatch: string } | undefined>;
    say: (text: string) => void;
  },
): Promise<void> {
  if (journal.ownerConfirmed) return;
  const labelled = await options.records();
  const known = new Set(labelled.map((r) => r.id));
  const bare = [...journal.claimedIds()].filter((id) => !known.has(id)).map((id) => ({ id }) as OwnedRecord);
  const sample = spread([...labelled, ...bare], OWNER_SAMPLE);
  const noun = options.kind === "shipment" ? "shipments" : "addresses";
  options.say(`The journal ${journal.path} was written with another token (or by an older shipctl); reading back ${sample.length} of its recorded ${noun} to check they belong to this organization...\n`);
  const problems: string[] = [];
  for (const record of sample) {
    const stored = await options.read(record.id);
    if (stored === undefined) problems.push(`${options.kind} ${record.id} does not exist here`);
    else if (typeof stored === "object") problems.push(`${options.kind} ${record.id} ${stored.mismatch}`);
    else if (record.label !== undefined && !sameLabel(stored, record.label)) problems.push(`${options.kind} ${record.id} is "${stored}" here, not "${record.label}"`);
  }
  if (problems.length === 0) {
    journal.acceptOwner();
    return;
  }
  throw new UsageError(
    `the journal ${journal.path} records ${noun} this organization does not have (${problems.slice(0, 3).join("; ")}${problems.length > 3 ? `; ${problems.length - 3} more` : ""}): ` +
      "it was written for another organization, or for a sandbox that was restarted since. Nothing was sent.",
    {
      hint: `To start afresh against this organization, move the journal away (for example \`mv "${journal.path}" "${journal.path}.old"\`) and run the same command again; every row will be sent. To finish the earlier run, use the token it was written with.`,
    },
  );
}
