// Address verification for a batch: every distinct inline address once (a gallery's own address on 500 rows is one
// request), with bounded concurrency, verdicts kept in the journal so a rerun does not ask again. Status 0 (rate
// limited) is retried inside the API client. A recommended revision is used only with --accept-recommended or a yes
// at the prompt, after showing the difference.
import { Address } from "../contract/index.js";
import type { ApiClient, CallOptions } from "../api/types.js";
import { ApiAuthError, RequestInterruptedError, isApiFailure } from "../api/errors.js";
import { diffFields, renderDiff } from "../output/diff.js";
import type { Theme } from "../output/theme.js";
import type { Prompter } from "../prompter.js";
import { ADDRESS_FIELDS } from "./columns.js";
import type { Journal, Verdict } from "./journal.js";
import { mapLimit } from "./pool.js";

export interface DistinctAddress {
  /** Its place among the distinct addresses, in the order they were first seen (see AddressSet.at). */
  index: number;
  address: Address;
  /** How many rows use it. */
  rows: number;
  /** The first row that uses it, for messages. */
  firstRow: number;
}

export type Decision =
  | { use: Address; revised: boolean }
  | { fail: string; unavailable?: boolean };

export interface VerifyOptions {
  api: ApiClient;
  journal?: Journal;
  concurrency: number;
  call: CallOptions;
  acceptRecommended: boolean;
  /** Set when a person can answer a prompt. */
  prompter?: Prompter;
  theme: Theme;
  err(text: string): void;
}

/** Collects the distinct addresses of the rows (by their normalised content). */
export class AddressSet {
  readonly byKey = new Map<string, DistinctAddress>();
  private readonly list: Array<[string, DistinctAddress]> = [];

  /** Counts one more row using the address; returns its index (a small number that names it among the others). */
  add(key: string, address: Address, row: number): number {
    const known = this.byKey.get(key);
    if (known) {
      known.rows++;
      return known.index;
    }
    const distinct = { index: this.list.length, address, rows: 1, firstRow: row };
    this.list.push([key, distinct]);
    this.byKey.set(key, distinct);
    return distinct.index;
  }

  /** The key and the address with that index. */
  at(index: number): { key: string; address: Address } | undefined {
    const found = this.list[index];
    return found && { key: found[0], address: found[1].address };
  }

  get size(): number {
    return this.byKey.size;
  }
}

export function verdictOf(outcome: Awaited<ReturnType<ApiClient["verifyAddress"]>>): Verdict {
  if (outcome.valid) return { status: "valid" };
  const r = outcome.result;
  if (r.recommended) {
    const revised = Address.safeParse(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, r[f] ?? undefined])));
    if (revised.success) return { status: "recommended", revised: revised.data, message: r.message };
  }
  return { status: "invalid", message: r.message || "the service found the address invalid", code: r.status };
}

/** Verifies each distinct address (journal first) and decides which address each will be sent as. */
export async function verifyAddresses(addresses: AddressSet, options: VerifyOptions): Promise<Map<string, Decision>> {
  const entries = [...addresses.byKey.entries()];
  const verdicts = await mapLimit(entries, options.concurrency, async ([key, distinct]) => {
    const known = options.journal?.verdict(key);
    if (known) return known;
    try {
      const verdict = verdictOf(await options.api.verifyAddress(distinct.address, options.call));
      await options.journal?.recordVerdict(key, verdict);
      return verdict;
    } catch (e) {
      if (e instanceof ApiAuthError || e instanceof RequestInterruptedError || !isApiFailure(e)) throw e;
      return { failed: e.message };
    }
  });

  const decisions = new Map<string, Decision>();
  for (let i = 0; i < entries.length; i++) {
    const [key, distinct] = entries[i]!;
    const verdict = verdicts[i]!;
    decisions.set(key, await decide(distinct, verdict, options));
  }
  return decisions;
}

async function decide(distinct: DistinctAddress, verdict: Verdict | { failed: string }, options: VerifyOptions): Promise<Decision> {
  if ("failed" in verdict) return { fail: `the address could not be verified: ${verdict.failed}`, unavailable: true };
  switch (verdict.status) {
    case "valid":
      return { use: distinct.address, revised: false };
    case "invalid":
      return { fail: `the service found the address invalid: ${verdict.message}` };
    case "recommended": {
      const diff = renderDiff(diffFields(distinct.address, verdict.revised, ADDRESS_FIELDS), { theme: options.theme, indent: "    " });
      if (options.acceptRecommended) return { use: verdict.revised, revised: true };
      if (options.prompter) {
        const uses = distinct.rows === 1 ? `row ${distinct.firstRow}` : `${distinct.rows} rows (first: row ${distinct.firstRow})`;
        options.err(`The service recommends a revision of the address of ${distinct.address.name} used on ${uses}:\n${diff}`);
        if (await options.prompter.confirm("Use the recommended address?", { default: false })) return { use: verdict.revised, revised: true };
        return { fail: "the service recommends a revision of the address, which was declined at the prompt" };
      }
      const changes = diffFields(distinct.address, verdict.revised, ADDRESS_FIELDS)
        .map((c) => `${c.field} "${c.before ?? ""}" -> "${c.after ?? ""}"`)
        .join(", ");
      return { fail: `the service recommends a revised address (${changes}); rerun with --accept-recommended to use it, or fix the row` };
    }
  }
}
