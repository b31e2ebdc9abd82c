// Address verification for a batch: every distinct inline address once (a gallery's own address on 500 rows is one
// request), with bounded concurrency, verdicts kept in the ledger so a rerun does not ask again. Status 0 (rate
// limited) is retried inside the API client. A recommended revision is used only with --accept-recommended or a yes
// at the prompt, after showing the difference.
import { ADDRESS_FIELDS, Address } from "../contract/index.js";
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { ApiAuthError, RequestInterruptedError, isApiFailure } from "../api/api-errors.js";
import { diffFields, renderDiff } from "../output/diff.js";
import type { Theme } from "../output/theme.js";
import type { Prompter } from "../prompter.js";
import type { InputLedger, Verdict } from "../ledger/input-ledger.js";

export interface DistinctAddress {
  address: Address;
  /** How many rows use it. */
  rows: number;
  /** The first row that uses it, for messages. */
  firstRow: number;
}

export type Decision =
  | { use: Address; revised: boolean }
  | { fail: string; unavailable?: boolean };

export interface VerifyOptions extends Omit<VerdictSource, "api"> {
  api: ApiClient;
  acceptRecommended: boolean;
  /** Set when a person can answer a prompt. */
  prompter?: Prompter;
  theme: Theme;
  /** Shows what a prompt asks about (the revision): kept with --quiet. */
  alert(text: string): void;
}

/** Collects the distinct addresses of the rows (by their normalised content). */
export class AddressSet {
  readonly byKey = new Map<string, DistinctAddress>();

  /** `onNew` is told of each distinct address when it is first added (to start verifying it early). */
  constructor(private readonly onNew?: (key: string, address: Address) => void) {}

  /** Counts one more row using the address. */
  add(key: string, address: Address, row: number): void {
    const known = this.byKey.get(key);
    if (known) {
      known.rows++;
      return;
    }
    this.byKey.set(key, { address, rows: 1, firstRow: row });
    this.onNew?.(key, address);
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

/** What verifying one address gave: a verdict, or why none came (the service could not be reached...). */
export type Fetched = Verdict | { failed: string };

export interface VerdictSource {
  api: () => Promise<ApiClient>;
  ledger?: InputLedger;
  concurrency: number;
  call: CallOptions;
}

/**
 * The verdict of each distinct address, asked once (the ledger first), with at most `concurrency` requests in
 * flight, from the moment it is asked for. A CSV run asks while its first pass is still reading (see earlyVerdicts in
 * prepare.ts), so the service's answers arrive while the file is being checked rather than after it.
 */
export class VerdictRequests {
  private readonly asked = new Map<string, Promise<Fetched>>();
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** A failure that stops the run (not authenticated, Ctrl-C): requests not yet started are not sent. */
  private stopped: { error: unknown } | undefined;
  /** Ends the requests in flight at once: verifying changes nothing on the service, so a stopping run drops them. */
  private readonly cancelled = new AbortController();

  constructor(private readonly source: VerdictSource) {}

  /** Starts nothing more and ends what is in flight, silently (the run stops: an invalid row, Ctrl-C). */
  cancel(): void {
    this.stopped ??= { error: new Error("verification cancelled: the run stopped") };
    this.cancelled.abort(this.stopped.error);
  }

  /** The verdict of `address`, asked now (or when a request slot frees) unless it was asked already. */
  get(key: string, address: Address): Promise<Fetched> {
    let verdict = this.asked.get(key);
    if (verdict === undefined) {
      verdict = this.fetch(key, address);
      // Whoever asks later sees the failure; until then it must not count as unhandled.
      verdict.catch(() => undefined);
      this.asked.set(key, verdict);
    }
    return verdict;
  }

  private async fetch(key: string, address: Address): Promise<Fetched> {
    const known = this.source.ledger?.verdict(key);
    if (known) return known;
    await this.slot();
    try {
      if (this.stopped) throw this.stopped.error;
      const api = await this.source.api();
      const signal = this.source.call.signal ? AbortSignal.any([this.source.call.signal, this.cancelled.signal]) : this.cancelled.signal;
      const verdict = verdictOf(await api.verifyAddress(address, { ...this.source.call, signal }));
      await this.source.ledger?.recordVerdict(key, verdict);
      return verdict;
    } catch (e) {
      if (e instanceof ApiAuthError || e instanceof RequestInterruptedError || !isApiFailure(e)) {
        this.stopped ??= { error: e };
        throw e;
      }
      return { failed: e.message };
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async slot(): Promise<void> {
    while (this.active >= Math.max(1, this.source.concurrency)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
  }
}

/**
 * Verifies each distinct address (ledger first) and decides which address each will be sent as. `requests` may
 * already hold verdicts asked for while the file was read; the decisions (and any prompt) come only now.
 */
export async function verifyAddresses(addresses: AddressSet, options: VerifyOptions & { requests?: VerdictRequests }): Promise<Map<string, Decision>> {
  const entries = [...addresses.byKey.entries()];
  const requests = options.requests ?? new VerdictRequests({ ...options, api: async () => options.api });
  const verdicts = await Promise.all(entries.map(([key, distinct]) => requests.get(key, distinct.address)));

  const decisions = new Map<string, Decision>();
  // One after another: a decision may prompt.
  for (const [i, [key, distinct]] of entries.entries()) decisions.set(key, await decide(distinct, verdicts[i]!, options));
  return decisions;
}

async function decide(distinct: DistinctAddress, verdict: Fetched, options: VerifyOptions): Promise<Decision> {
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
        options.alert(`The service recommends a revision of the address of ${distinct.address.name} used on ${uses}:\n${diff}`);
        if (await confirmRevision(options.prompter)) return { use: verdict.revised, revised: true };
        return { fail: "the service recommends a revision of the address, which was declined at the prompt" };
      }
      return { fail: `the service recommends a revised address (${revisionText(distinct.address, verdict.revised)}); rerun with --accept-recommended to use it, or fix the row` };
    }
  }
}

/** A recommended revision in one line, as a row's error says it: `city "Pariss" -> "Paris", post_code "" -> "75001"`. */
export function revisionText(before: Address, after: Address): string {
  return diffFields(before, after, ADDRESS_FIELDS)
    .map((c) => `${c.field} "${c.before ?? ""}" -> "${c.after ?? ""}"`)
    .join(", ");
}

/**
 * The one question about a recommended revision, in `address add` and `update` and in every CSV batch. Enter answers
 * No: staff who press Enter without reading keep the address as they typed it, and nothing they did not choose is
 * stored; the run then says how to take the revision (--accept-recommended, or yes at the prompt).
 */
export function confirmRevision(prompter: Prompter): Promise<boolean> {
  return prompter.confirm("Use the recommended address?", { default: false });
}
