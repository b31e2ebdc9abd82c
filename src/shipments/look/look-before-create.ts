// The look before a create: without a shared ledger, another machine of the same organization (a colleague's laptop,
// a script on a server) may have created the very shipments this run is about to send. The service has no
// idempotency key, so before anything is sent the organization's recent shipments are read (look-pages.ts, at a cost
// that follows what is new since this machine last looked) and a row that matches one of them which this machine did
// not create is not sent (look-match.ts): it is reported `matched`, named, and counts as done. --force-new sends it.
import type { Deps } from "../../deps.js";
import { namedAs, UnavailableError } from "../../errors.js";
import type { CallOptions } from "../../api/client-types.js";
import type { Shipment, StoredShipment } from "../../contract/index.js";
import type { Outcome } from "../../batch/outcomes.js";
import { formatAge, parseTimestamp } from "../../output/time-format.js";
import { profileInUse } from "../../config/config-context.js";
import { profileOf } from "../../config/profile-name.js";
import { resolveLookDays } from "../../config/look-days.js";
import { lookMemoryPath, readLookMemory, rememberCreated, writeLookMemory, type LookMemory } from "./look-memory.js";
import { firstLook, laterLook, LOOK_PAGE_LIMIT, Unordered, type LookEnd, type LookList, type LookRead } from "./look-pages.js";
import { RecentMatches, type Match } from "./look-match.js";

const DAY_MS = 86_400_000;

export interface LookOptions {
  call: CallOptions;
  /** --force-new: no look. */
  forceNew: boolean;
  /** A dry run writes nothing, the look's memory included. */
  dryRun: boolean;
  /**
   * Whether this machine's ledger created the shipment with this id: asked of whichever ledger the run uses, so a
   * shipment it created (a second one made on purpose, say) is never taken for another machine's.
   */
  createdHere(id: number): boolean;
  /** "row" (CSV) or "item" (flags, JSON): how a match is named. */
  position: "row" | "item";
  say(text: string): void;
}

export interface Look {
  /** The outcome of a row that matches a shipment another machine created (claimed for it), or undefined. */
  match(position: number, row: Shipment, base: Pick<Outcome, "label" | "reference">): Outcome | undefined;
}

type Item = { id: number; createdAt: number | undefined; shipment: StoredShipment };

const createdMs = (s: StoredShipment) => parseTimestamp(s.created_at)?.getTime();
const itemOf = (s: StoredShipment): Item => ({ id: s.id, createdAt: createdMs(s), shipment: s });

/** The look, or undefined when there is none to make (--force-new, 0 days, a list in no order). */
export async function lookBeforeCreate(deps: Deps, options: LookOptions): Promise<Look | undefined> {
  if (options.forceNew) return undefined;
  // The look's window for this run (config/look-days.ts says where it comes from).
  const { data, profile } = await profileInUse(deps);
  const days = resolveLookDays(deps.env, profileOf(data, profile)).days;
  if (days === 0) return undefined;
  const connection = await deps.connection();
  const api = await deps.api();
  const path = lookMemoryPath(deps.env, connection);
  const memory = await readLookMemory(path);
  const list: LookList<Item> = {
    page: async (n) => {
      const page = await api.listShipments({ page: n, limit: LOOK_PAGE_LIMIT }, options.call);
      return { items: page.data.map(itemOf), next: page.links.next !== null };
    },
  };
  // The service's clock (created_at is stamped by it), as far as this run has measured it from its answers.
  const now = () => deps.clock.now().getTime() + (api.serviceClockOffsetMs?.() ?? 0);
  let since = now() - days * DAY_MS;
  let read: LookRead<Item>;
  let recent: Item[];
  try {
    const later = memory.end !== undefined && (memory.coversSince ?? Infinity) <= since ? await laterLook(list, memory.end) : undefined;
    if (later) {
      read = later;
      since = now() - days * DAY_MS;
      recent = [...memory.recent.map(itemOf), ...later.items].filter((i) => (i.createdAt ?? -Infinity) >= since);
    } else {
      read = await firstLook(list, () => (since = now() - days * DAY_MS), deps.debug);
      recent = read.items;
    }
  } catch (e) {
    if (!(e instanceof Unordered)) throw unreadable(e);
    options.say(
      `The service lists shipments in no order (${e.message}), so shipctl cannot read only the recent ones: the look for ` +
        `shipments another machine created is skipped, and every row is sent as this machine's ledger decides.\n`,
    );
    return undefined;
  }
  if (read.fullScan !== undefined) options.say(`The look for shipments another machine created read every page: ${read.fullScan}.\n`);
  deps.debug(`look: ${read.pages} page${read.pages === 1 ? "" : "s"} read, ${recent.length} shipment${recent.length === 1 ? "" : "s"} created in the last ${days} days`);
  const mine = new Set(memory.mine);
  if (!options.dryRun) {
    const next = nextMemory(memory, read.end, since, recent);
    await writeLookMemory(path, next.memory, next.keepFrom);
  }
  const others = recent.filter((i) => i.createdAt !== undefined && !mine.has(i.id) && !options.createdHere(i.id));
  const matches = new RecentMatches(others.map((i): Match => ({ shipment: i.shipment, createdAt: i.createdAt! })));
  return {
    match: (position, row, base) => {
      const m = matches.take(row);
      if (!m) return undefined;
      const what = `matches shipment ${m.shipment.id}, created ${formatAge(now() - m.createdAt)}, not by this machine`;
      options.say(`${options.position} ${position} ${what}: ${options.dryRun ? "it would not be sent" : "not sent"} (--force-new sends it).\n`);
      return { status: "matched", ...base, id: m.shipment.id, error: what };
    },
  };
}

/**
 * The list could not be read: nothing is sent, since a row another machine created would be sent twice. The
 * service's own error (auth, subscription) is kept as it is; anything else is said as the look's, under its own name.
 */
function unreadable(e: unknown): unknown {
  if (!(e instanceof UnavailableError)) return e;
  const look = new UnavailableError(`the look for shipments another machine created could not read the service's shipments (${e.message}): nothing was sent`, {
    cause: e,
    hint: "Run again later; SHIPCTL_LOOK_DAYS=0 (or the profile's lookDays 0) creates without the look, --force-new sends anyway.",
  });
  return namedAs(look, e);
}

/** What the next look starts from; the ids created here are kept while they can still be in the window. */
function nextMemory(memory: LookMemory, end: LookEnd | undefined, since: number, recent: readonly Item[]): { memory: LookMemory; keepFrom: number } {
  const oldestRecent = recent.reduce((min, i) => Math.min(min, i.id), Infinity);
  const keepFrom = Number.isFinite(oldestRecent) ? oldestRecent : (end?.newestId ?? 0) + 1;
  const next = { version: memory.version, ...(end !== undefined ? { end } : {}), coversSince: since, recent: recent.map((i) => i.shipment), mine: memory.mine };
  return { memory: next, keepFrom };
}

/**
 * After a create run: the ids it created are this machine's (a later look must not match them), and so are the ids
 * of rows skipped as done: their entries are in this machine's ledger, among them a lost answer a rerun found
 * created, which no run reported created. The look asks the ledger only about its own input's rows.
 */
export async function recordCreated(deps: Deps, outcomes: Iterable<[number, Outcome]>): Promise<void> {
  const ids: number[] = [];
  for (const [, o] of outcomes) if ((o.status === "created" || o.status === "skipped") && o.id !== undefined) ids.push(o.id);
  if (ids.length === 0) return;
  const connection = await deps.connection();
  await rememberCreated(lookMemoryPath(deps.env, connection), ids);
}
