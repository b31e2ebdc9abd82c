// Rows another input already sent: a copy of a file (`shipments (1).csv`), a file renamed, the results of an export
// run again, or a row given again with flags. Their keys say what the writes are (the reference, or the content and
// its occurrence), so the organization's ledger finds them whichever input sent them. Any such row stops the run
// before anything is sent (exit 2), naming the input that sent it and --force-new (force-new.ts). The rows are looked
// up as the first pass reads them, 10,000 keys a look-up: the cost grows with the input, not with the ledger, and the
// pass holds no key a row.
import { basename } from "node:path";
import { UsageError } from "../errors.js";
import { shellPath } from "../output/shell-quote.js";
import type { InputLedger } from "./input-ledger.js";
import { forceNewHint } from "./force-new.js";
import { takeOverOrphans } from "./orphans.js";
import { LEASE_MS } from "./postgres-leases.js";
import type { Entry } from "./store.js";

/**
 * Keys looked up in one go while the rows are read: the keys the pass holds stay this many however long the file.
 * Only the hits are kept: none on a first run of a file, and each one is refused or taken back at the end of the pass.
 * Each look-up reads every ledger bucket its keys fall in once (local-store.ts).
 */
const LOOKUP_KEYS = 10_000;

/** Looks a run's row keys up in the ledger as they are read (see), then refuses what other inputs sent (refusal). */
export class EarlierSends {
  private keys: string[] = [];
  private readonly found = new Map<string, Entry>();
  /** The look-ups so far, one after another: the refusal waits for every one, whether or not the pass did. */
  private looking: Promise<void> = Promise.resolve();

  constructor(private readonly ledger: InputLedger) {}

  /** A row of this run; with enough waiting, the promise of their look-up (the pass awaits it, holding no more). */
  see(key: string): Promise<void> | undefined {
    if (key !== "") this.keys.push(key);
    return this.keys.length >= LOOKUP_KEYS ? this.lookUp() : undefined;
  }

  private lookUp(): Promise<void> {
    const keys = this.keys;
    this.keys = [];
    this.looking = this.looking.then(async () => {
      for (const [k, e] of await findSent(this.ledger, keys)) this.found.set(k, e);
    });
    return this.looking;
  }

  /**
   * The error that stops the run when other inputs sent some of its rows, naming the first input they were sent from;
   * `input` names this run's input, `command` the command ("shipment create"), `valid` the rows it would send.
   */
  async refusal(input: string, command: string, valid: number, serviceFlags: readonly string[]): Promise<UsageError | undefined> {
    await this.lookUp();
    const found = await sentElsewhereOf(this.ledger, this.found);
    if (found.size === 0) return undefined;
    return sentElsewhereError(input, command, [...found.values()], valid, { shared: this.ledger.store.shared === true, serviceFlags });
  }
}

/**
 * What other inputs sent of these rows (a copy of a file, a row given again with flags): each row this input has no
 * record of whose entry is done or in flight. An entry this input itself recorded is taken back as its row, and so is
 * a done entry of a team's shared ledger (another machine sent it: done for the whole team), and an entry in flight
 * there whose run died (orphans.ts). With --force-new, only entries still in flight (force-new.ts).
 */
export async function sentElsewhere(ledger: InputLedger, rowKeys: readonly string[]): Promise<Map<string, Entry>> {
  return sentElsewhereOf(ledger, await findSent(ledger, rowKeys));
}

/** The store's entries, done or in flight, of the rows this input has no record of (row key -> entry). Reads only. */
async function findSent(ledger: InputLedger, rowKeys: readonly string[]): Promise<Map<string, Entry>> {
  const todo = rowKeys.filter((k) => {
    const s = ledger.row(k)?.state;
    return s === undefined || s === "failed";
  });
  // The cost grows with the input, never with the ledger (LedgerStore.findAll).
  const found = await ledger.store.findAll(todo.map((k) => ledger.usualKey(k)));
  const out = new Map<string, Entry>();
  for (const k of todo) {
    const e = found.get(ledger.usualKey(k));
    if (e !== undefined && e.state.state !== "failed") out.set(k, e);
  }
  return out;
}

/** Of the entries findSent found, those sent by other inputs (see sentElsewhere); the others are taken back. */
async function sentElsewhereOf(ledger: InputLedger, found: ReadonlyMap<string, Entry>): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  for (const [k, e] of found) {
    if (e.input === ledger.source) {
      ledger.adopt(k, e.state);
      continue;
    }
    if (ledger.forceNew && e.state.state !== "in_flight") continue;
    if (ledger.store.shared === true && e.state.state !== "in_flight") {
      // A row this input tried and was refused (failed here: another machine held it) is that machine's done write:
      // recorded so, or every rerun would claim it again and be refused again.
      if (ledger.row(k) === undefined) ledger.adopt(k, e.state);
      else ledger.note([[k, e.state]], { store: false });
      continue;
    }
    out.set(k, e);
  }
  // In a team's ledger, another machine's entries in flight whose run died are this run's to settle (orphans.ts).
  if (ledger.store.shared === true) {
    const inFlight = new Map([...out].filter(([, e]) => e.state.state === "in_flight"));
    for (const k of await takeOverOrphans(ledger, inFlight)) out.delete(k);
  }
  return out;
}

/**
 * The refusal of writes other inputs sent (or still have in flight). `shared`: a team's ledger, whose entries in flight
 * are another live run's, maybe on another machine (a dead run's are taken over: orphans.ts). The commands it prints
 * repeat the run's --profile and --base-url (`serviceFlags`).
 */
export function sentElsewhereError(input: string, command: string, entries: readonly Entry[], valid: number, run: { shared: boolean; serviceFlags: readonly string[] }): UsageError {
  const shared = run.shared;
  const flags = run.serviceFlags.map((word) => ` ${word}`).join("");
  const first = entries[0]!;
  const many = entries.length;
  const rows = many === valid ? (valid === 1 ? "it" : `all ${valid} of its rows`) : `${many} of its ${valid} rows`;
  const origin = first.input === "stdin" ? "input read from stdin" : first.input === "flags" ? "flags" : basename(first.input);
  const flag = /\.(json|jsonl|ndjson)$/i.test(first.input) ? "--file" : "--csv";
  const again = /^(stdin|flags|checkout|report upload)$/.test(first.input) ? "that run's command again with the same input" : `\`shipctl ${command} ${flag} ${shellPath(first.input)}${flags}\``;
  const inFlight = entries.some((e) => e.state.state === "in_flight");
  return new UsageError(
    `${input}: ${rows} ${many === 1 && valid === 1 ? "was" : "were"} already sent by an earlier run from ${origin} (${first.input}), recorded in the ledger; ` +
      `running this would send ${many === 1 ? "it" : "them"} again as new. Nothing was sent.`,
    {
      hint: inFlight && shared
        ? `That run may still be sending them, on this machine or another (\`shipctl ledger status${flags}\` names it): run this again once it is over. If it died, the next run settles its rows: at once after a run of this machine, once its lease has expired (within ${LEASE_MS / 1000} s) after another machine's (never with --force-new, which never overrides a write in flight).`
        : inFlight
        ? `That run's request is still in flight: run ${again} to settle it first; --force-new never overrides a write in flight.`
        : `To finish that run, run ${again}. ${forceNewHint()}`,
    },
  );
}
