// Whose entries a run may trust. The ledger is the organization's by its base URL (organization.ts), which does not
// name an organization: another organization's token on the same URL, or an in-memory sandbox restarted on the same
// port, would find rows recorded as created (with ids that are not theirs), skip them, and exit 0 with nothing
// created. So the ledger keeps its token's mark (organization.ts). When a run's token does not match it, the ids the
// input's record holds are checked against the service before any is trusted: if they exist with the same titles
// (names for addresses) it is the same organization with a new token, and the new mark is recorded; otherwise the
// run stops before sending anything (exit 2).
import { unlessUnseen } from "../api/api-errors.js";
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { UsageError } from "../errors.js";
import type { InputLedger } from "./input-ledger.js";
import type { Sees } from "./organization.js";

/** How many recorded ids are read back at most: spread over the record, enough to tell another organization. */
export const OWNER_SAMPLE = 20;

/** What the owner check needs of a ledger. */
type OwnedLedger = Pick<InputLedger, "path" | "ownerConfirmed" | "claimedIds" | "acceptOwner">;

/** A record to check: its id, and the title (or name) the input gives it when the input still has that row. */
export interface OwnedRecord {
  id: number;
  label?: string;
}

export type OwnedKind = "shipment" | "address";

/** Whether this token sees a shipment or address by id: organizations on one base URL are told apart by it (organization.ts). */
export function seenBy(api: ApiClient, call: CallOptions): Sees {
  return async (kind, id) => (await ownedReader(api, kind, call)(id)) !== undefined;
}

/** Reads a stored item's title (shipments) or name (addresses); undefined when this token cannot see it. */
export function ownedReader(api: ApiClient, kind: OwnedKind, call: CallOptions): (id: number) => Promise<string | undefined> {
  return async (id) => (kind === "shipment" ? (await unlessUnseen(api.getShipment(id, call)))?.title : (await unlessUnseen(api.getAddress(id, call)))?.name);
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
 * Makes sure the ledger's records are this token's before the run trusts any of them. `records` gives the recorded
 * ids with the labels the input gives them (read only when a check is needed); ids recorded for rows the input no
 * longer has are checked for existence only.
 */
export async function confirmLedgerOwner(
  ledger: OwnedLedger,
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
  if (ledger.ownerConfirmed) return;
  const labelled = await options.records();
  const known = new Set(labelled.map((r) => r.id));
  const bare = [...ledger.claimedIds()].filter((id) => !known.has(id)).map((id) => ({ id }) as OwnedRecord);
  const sample = spread([...labelled, ...bare], OWNER_SAMPLE);
  const noun = options.kind === "shipment" ? "shipments" : "addresses";
  options.say(`The ledger's record of this input (${ledger.path}) was written with another token; reading back ${sample.length} of its recorded ${noun} to check they belong to this organization...\n`);
  const problems: string[] = [];
  for (const record of sample) {
    const stored = await options.read(record.id);
    if (stored === undefined) problems.push(`${options.kind} ${record.id} does not exist here`);
    else if (typeof stored === "object") problems.push(`${options.kind} ${record.id} ${stored.mismatch}`);
    else if (record.label !== undefined && !sameLabel(stored, record.label)) problems.push(`${options.kind} ${record.id} is "${stored}" here, not "${record.label}"`);
  }
  if (problems.length === 0) {
    ledger.acceptOwner();
    return;
  }
  throw new UsageError(
    `the ledger's record of this input (${ledger.path}) holds ${noun} this organization does not have (${problems.slice(0, 3).join("; ")}${problems.length > 3 ? `; ${problems.length - 3} more` : ""}): ` +
      "it was written for another organization, or for a sandbox that was restarted since. Nothing was sent.",
    {
      hint: `To start afresh against this organization, move the ledger's folder away (for example \`mv "${ledgerFolder(ledger.path)}" "${ledgerFolder(ledger.path)}.old"\`) and run the same command again; every row will be sent. To finish the earlier run, use the token it was written with.`,
    },
  );
}

/** The organization's ledger folder holding an input's record (<ledger>/inputs/<hash>.jsonl). */
function ledgerFolder(recordPath: string): string {
  return recordPath.replace(/[\\/]inputs[\\/][^\\/]+$/, "");
}
