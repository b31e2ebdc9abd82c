// `address add` (one address, from flags or --file): POST /api/v1/addresses at most once per address. The service has
// no idempotency key, so the request goes through the organization's ledger (docs/ledger.md), as an input of its
// own named by the address's content ("address add", part <hash>). Its row key is the hash of the address as given:
//   recorded stored        -> a rerun prints that id (read back once: it must be this token's, and still this
//                             address) and stores nothing
//   recorded in flight     -> a request whose answer never came: settled by reading the stored addresses back and
//                             matching what was sent (ledger/settle.ts); the service may still be storing it until
//                             its settle time, so a rerun before then waits (a countdown) unless --no-wait
//   not recorded, refused  -> stored now: the intent (the address exactly as sent) recorded before the POST, its id
//                             after it
// A lost answer in the same run is never followed by a second POST: after a short pause the addresses are read back
// once; found, the id is printed as usual; not found, it stays in flight and the run says from when a rerun settles
// it, unless the service itself answered (a 5xx not a gateway's, ledger/settle-window.ts): then not found is final,
// and a rerun stores it at once. --force-new stores the same address again on purpose (a row of its own, `<hash>#2`...).
// Not in the ledger (another config folder, input typed differently, stored by a CSV run): before anything is stored,
// the stored addresses are read (stored-match.ts) and one that is the same address, as given or as the verifier
// revised it, is the answer; the ledger records it, so the next rerun asks the ledger again.
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { unlessUnseen } from "../api/api-errors.js";
import { addressKey, type Address, type StoredAddress } from "../contract/index.js";
import { addressOf } from "./verification.js";
import { callOptions, type Deps } from "../deps.js";
import { InterruptedError, UnavailableError } from "../errors.js";
import { InputLedger, type InFlight, type RowState } from "../ledger/input-ledger.js";
import { addressHash } from "../ledger/entry.js";
import { sentElsewhere, sentElsewhereError } from "../ledger/copy-guard.js";
import type { Entry } from "../ledger/store.js";
import { Outcomes } from "../batch/outcomes.js";
import { rowWrites, WriteSender } from "../batch/write-sender.js";
import { RECONCILE_DELAY_MS } from "../batch/settle-lost.js";
import { settleLedger } from "../ledger/settle-ledger.js";
import type { Settlement } from "../ledger/settle.js";
import { seenBy } from "../ledger/owner.js";
import { settleWindowOf } from "../ledger/settle-window.js";
import { formatSettleTime } from "../output/time-format.js";
import { serviceFlags } from "../output/shell-quote.js";
import { addressFinder, sameAddressKey, storedAddressFinder } from "./stored-match.js";

/** How long `address add` waits for another run adding the same address before refusing it. */
const LOCK_WAIT_MS = 5_000;

export interface AddOnceOptions {
  /** false with --no-wait: a request still in flight is reported at once instead of waited for. */
  wait: boolean;
  /** --force-new: store it even though an earlier run stored the same address. */
  forceNew: boolean;
}

export type AddedAddress =
  /** Stored by this run; `foundAfterLoss` when its answer was lost and reading back found it. */
  | { kind: "stored"; id: number; address: Address; foundAfterLoss: boolean; interrupted: boolean }
  /**
   * Stored by an earlier run: nothing sent now. `settled` when that run's answer was lost and this run found it;
   * `listed` when the ledger did not know it and it was found among the stored addresses.
   */
  | { kind: "earlier"; id: number; address: Address; settled: boolean; listed: boolean };

/** What an earlier run (of this input or another) stored, as the ledger knows it. */
type Earlier = Omit<Extract<AddedAddress, { kind: "earlier" }>, "listed">;

/**
 * Stores `input` unless an earlier run did. `toStore` decides what is sent (verification, a recommended revision):
 * asked only when something is to be sent, so a rerun of a stored address asks the service nothing more.
 */
export async function addAddressOnce(deps: Deps, input: Address, options: AddOnceOptions, toStore: (api: ApiClient) => Promise<Address>): Promise<AddedAddress> {
  const [api, connection] = await Promise.all([deps.api(), deps.connection()]);
  const base = addressHash(addressKey(input));
  const ledger = await InputLedger.open(deps.env, {
    kind: "address-add",
    source: "address add",
    part: base,
    target: { baseUrl: connection.baseUrl, token: connection.token, ledger: connection.ledger, sees: seenBy(api, { signal: deps.signal }), say: (text) => deps.io.err(text) },
    window: await settleWindowOf(connection, deps.env),
    serviceFlags: serviceFlags(deps.globals),
    forceNew: options.forceNew,
    lockWait: {
      ms: LOCK_WAIT_MS,
      say: (holder) => deps.io.err(`Another run is adding this address (${holder}); waiting up to ${LOCK_WAIT_MS / 1000} s for it to finish...\n`),
    },
  });
  try {
    const call = callOptions(deps, "Reading the addresses");
    // First what other inputs recorded of this address: in a shared ledger, another machine's run of this same
    // input, or a dead run's, left in flight is taken in here (copy-guard.ts), so that earlierRuns settles it.
    // --force-new looks for nothing stored (it stores the address once more), but never sends beside a request of the
    // address still in flight (force-new.ts): that one is settled first, or stops the run.
    const elsewhere = (await sentElsewhere(ledger, [base])).get(base);
    const earlier = (await earlierRuns(deps, api, call, ledger, input, options)) ?? (await storedElsewhere(api, call, ledger, elsewhere, input, serviceFlags(deps.globals)));
    if (earlier) return { listed: false, ...earlier };
    const findStored = options.forceNew ? undefined : storedAddressFinder(api, call);
    let found = await findStored?.(input);
    const address = found ? input : await toStore(api);
    // A revision accepted at the prompt may be what an earlier run stored, as revised.
    if (!found && address !== input) found = await findStored?.(address);
    if (found) {
      ledger.note([[freeKey(ledger, base), { state: "created", id: found.id }]]);
      return { kind: "earlier", id: found.id, address: addressOf(found), settled: false, listed: true };
    }
    return await store(deps, api, call, ledger, freeKey(ledger, base), address);
  } finally {
    await ledger.close();
  }
}

/** The first row key of this address that holds nothing stored or in flight: `<hash>`, then `<hash>#2`... */
function freeKey(ledger: InputLedger, base: string): string {
  for (let n = 1; ; n++) {
    const key = n === 1 ? base : `${base}#${n}`;
    const state = ledger.row(key)?.state;
    if (state !== "created" && state !== "in_flight") return key;
  }
}

/**
 * What earlier runs did with this address: requests in flight are settled first (waiting for them unless --no-wait);
 * one still unsettled stops the run before anything is sent. The latest stored, if this token can see it, is the
 * answer (not with --force-new). Undefined when nothing is stored: the address is to be sent.
 */
async function earlierRuns(deps: Deps, api: ApiClient, call: CallOptions, ledger: InputLedger, input: Address, options: AddOnceOptions): Promise<Earlier | undefined> {
  const settledNow = new Set<string>();
  if (ledger.inFlight().size > 0) {
    deps.io.err("An earlier run sent this address to be stored and its answer never came; reading the stored addresses back to settle it...\n");
    const settled = await settleAddresses(deps, call, ledger, { wait: options.wait });
    for (const [key, s] of settled) if (s.state === "applied") settledNow.add(key);
    const still = [...ledger.inFlight().values()];
    if (still.length > 0) {
      const until = new Date(Math.max(...still.map((s) => Date.parse(s.settle_at))));
      if (deps.signal.aborted) {
        throw new InterruptedError("interrupted while waiting for an earlier request to store this address: nothing was sent", {
          hint: "Run the same command again: it settles that request first, and stores the address only if it was not stored.",
        });
      }
      throw new UnavailableError(
        `an earlier run's request to store this address may still be being applied by the service (until ${formatSettleTime(until)}): nothing was sent`,
        { hint: `Run the same command again after ${formatSettleTime(until)} (sooner, it waits until then): it finds the address, or stores it if that request did not.` },
      );
    }
  }
  if (options.forceNew) return undefined;
  const stored = [...ledger.entries()].filter((e): e is [string, Extract<RowState, { state: "created" }>] => e[1].state === "created");
  for (const [key, state] of stored.reverse()) {
    const record = await unlessUnseen(api.getAddress(state.id, call));
    if (record === undefined) {
      deps.io.err(`The ledger records this address as stored as address ${state.id}, but this token cannot read that address: storing it.\n`);
      continue;
    }
    if (!sameParty(record, input)) {
      // Another address under that id: a sandbox restarted on the same port, or the address was updated since.
      deps.io.err(`The ledger records this address as stored as address ${state.id}, but address ${state.id} is now "${record.name}" <${record.email}>: storing it.\n`);
      continue;
    }
    ledger.acceptOwner();
    return { kind: "earlier", id: state.id, address: addressOf(record), settled: settledNow.has(key) };
  }
  return undefined;
}

/**
 * The address as another input stored it (`address add --csv`), found in the organization's ledger: read back once,
 * it must still be this address. One in flight there stops the run: that input's rerun settles it. With --force-new
 * the ledger gives only entries in flight (copy-guard.ts).
 */
async function storedElsewhere(api: ApiClient, call: CallOptions, ledger: InputLedger, entry: Entry | undefined, input: Address, flags: readonly string[]): Promise<Earlier | undefined> {
  if (entry === undefined) return undefined;
  if (entry.state.state === "in_flight") throw sentElsewhereError("This address", "address add", [entry], 1, { shared: ledger.store.shared === true, serviceFlags: flags });
  if (entry.state.state !== "created") return undefined;
  const record = await unlessUnseen(api.getAddress(entry.state.id, call));
  if (record === undefined || !sameParty(record, input)) return undefined;
  return { kind: "earlier", id: entry.state.id, address: addressOf(record), settled: false };
}

/**
 * Whether a stored address is the one an earlier run stored for `input`: the fields the service's verifier gives back
 * as sent (name, email, phone, country; api.md, endpoint 2) are the same. The others may be its recommended revision.
 */
function sameParty(stored: StoredAddress, input: Address): boolean {
  // As retyped (stored-match.ts): the ledger also records an address found stored under a differently typed input.
  const party = (a: Partial<Address>) => sameAddressKey({ name: a.name, email: a.email, phone: a.phone, country: a.country });
  return party(stored as Partial<Address>) === party(input);
}

async function store(deps: Deps, api: ApiClient, call: CallOptions, ledger: InputLedger, key: string, address: Address): Promise<AddedAddress> {
  if (deps.signal.aborted) throw new InterruptedError("interrupted before the address was sent: nothing was stored");
  // The one sender of the CSV runs (batch/write-sender.ts): the intent, with the address exactly as sent, is on disk
  // before the POST (no idempotency key), so a lost answer can be settled by reading back, by this run or the next.
  const outcomes = new Outcomes();
  const sender = new WriteSender({ kind: rowWrites("created", (f) => f), ledger, api, outcomes, clock: deps.clock, signal: deps.signal, concurrency: 1 });
  // Not idempotent: the HTTP layer lets it finish on the first Ctrl-C (deps.writeSignal), so its answer is recorded.
  const send = async () => (await api.createAddress(address, { signal: deps.signal })).id;
  await sender.offer({ key, row: 1, label: address.name, sent: [address], body: {}, send });
  await sender.finish();
  const { id, cause } = outcomes.get(1)!;
  if (id !== undefined) return { kind: "stored", id, address, foundAfterLoss: false, interrupted: deps.signal.aborted };
  // Refused, or stopped: thrown as it came (the ledger holds it failed, or in flight for the rerun when it may have left).
  if (sender.lost.length === 0 || sender.stopped !== undefined) throw cause;
  return { kind: "stored", id: await readBack(deps, call, ledger, key, cause as Error), address, foundAfterLoss: true, interrupted: false };
}

/**
 * After a lost answer: one read-back after a short pause (until its settle time when the service itself answered: that
 * read is conclusive). Never sends it again.
 */
async function readBack(deps: Deps, call: CallOptions, ledger: InputLedger, key: string, lost: Error): Promise<number> {
  const flight = ledger.row(key) as InFlight;
  const settleAt = new Date(flight.settle_at);
  const pause = flight.answer_status === undefined ? RECONCILE_DELAY_MS : Math.max(RECONCILE_DELAY_MS, settleAt.getTime() - deps.clock.now().getTime());
  deps.io.err(`${lost.message}\nNot sending it again; reading the stored addresses back in ${Math.ceil(pause / 1000)} s to see whether it was stored...\n`);
  const until = formatSettleTime(settleAt);
  const rerun = `Run the same command again after ${until} (sooner, it waits until then): it reads the addresses back first and stores the address only if this request did not.`;
  let settled: Settlement | undefined;
  try {
    await deps.clock.sleep(pause, deps.signal);
    settled = (await settleAddresses(deps, call, ledger, { only: (k) => k === key, wait: false })).get(key);
  } catch (err) {
    if (deps.signal.aborted) {
      throw new InterruptedError("interrupted while checking whether the address was stored: it may have been", {
        hint: `${rerun} (\`shipctl list addresses\` shows the newest addresses.)`,
      });
    }
    throw new UnavailableError(
      `the answer to storing the address was lost, and reading the addresses back failed (${(err as Error).message}): ` +
        "whether it was stored is unknown",
      { hint: `Nothing was sent again. ${rerun} (\`shipctl list addresses\` shows the newest addresses.)`, cause: err },
    );
  }
  if (settled?.state === "applied" && settled.id !== undefined) return settled.id;
  if (settled?.state === "not-applied") {
    const answered = flight.answer_status === undefined ? "its settle time has passed" : `the service answered ${flight.answer_status}`;
    throw new UnavailableError(`the address was not stored: ${answered}, and it is not among the stored addresses`, {
      hint: "Nothing was stored. Run the same command again to store it.",
      cause: lost,
    });
  }
  throw new UnavailableError(
    `the address may still be being stored: the answer to its request was lost, and it was not among the stored addresses ` +
      `${RECONCILE_DELAY_MS / 1000} s later, but the service may still be storing it until ${until}`,
    { hint: `Nothing was sent again. ${rerun}`, cause: lost },
  );
}

/** Settles this address's requests in flight by reading the stored addresses back; the ledger records what it finds. */
async function settleAddresses(deps: Deps, call: CallOptions, ledger: InputLedger, o: { wait: boolean; only?: (key: string) => boolean }): Promise<Map<string, Settlement>> {
  return settleLedger(ledger, await addressFinder(deps, call, ledger), deps, { ...o, noun: "address", done: (id) => ({ state: "created", id: id! }) });
}
