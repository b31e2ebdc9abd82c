// `shipctl ledger unlock ID`: releases an entry in flight or a lease a dead machine left in the shared ledger (ids as
// `ledger status` shows them). Refused while its holder may be alive: a lease not yet expired, or an entry whose run
// still holds a live lease. Releasing an entry in flight forgets a request that may have reached the service, so
// what was released is printed whole, for a check with `shipctl list shipments` before sending it again.
import { LOCAL_LEDGER } from "../config/ledger-setting.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { printJson } from "../output/json.js";
import { serviceFlags } from "../output/shell-quote.js";
import { aliveHere, describeHolderRun } from "./holder.js";
import { openSharedLedger } from "./open-store.js";
import { ledgerDir } from "./organization.js";
import { holderMayBeAlive, LEASE_MS } from "./postgres-leases.js";

export async function unlockLedger(deps: Deps, id: number, json: boolean): Promise<void> {
  const { baseUrl, ledger: settings = LOCAL_LEDGER } = await deps.connection();
  if (settings.kind === "local") {
    throw new UsageError("ledger unlock releases what a dead machine left in a shared ledger; this run uses the local ledger (neither the profile's ledger nor SHIPCTL_LEDGER names one)", {
      hint: "On one machine, a lock whose run died is taken over by the next run by itself.",
    });
  }
  const { store } = await openSharedLedger(settings, { dir: ledgerDir(deps.env, { baseUrl }), baseUrl, env: deps.env, say: (t) => deps.io.err(t) });
  const lease = await store.leases.byId(id);
  if (lease !== undefined) {
    if (!lease.expired && aliveHere(lease) !== false) {
      throw new UsageError(`lease ${id} on ${lease.what} is held by a run that may be alive (${describeHolderRun(lease)}); it expires ${lease.expiresAt.toISOString()} unless renewed`, {
        hint: `A live run renews its lease every ${LEASE_MS / 3000} s; a dead one's expires within ${LEASE_MS / 1000} s. Run this again after that.`,
      });
    }
    await store.leases.release(id);
    report(deps, json, { released: "lease", id, what: lease.what, machine: lease.machine, user: lease.user, pid: lease.pid, command: lease.command, since: lease.since.toISOString() });
    return;
  }
  const e = await store.entryById(id);
  if (e === undefined) {
    throw new UsageError(`the shared ledger holds no entry in flight or lease with id ${id}`, { hint: `\`${["shipctl ledger status", ...serviceFlags(deps.globals)].join(" ")}\` lists them with their ids.` });
  }
  if (e.state.state !== "in_flight") throw new UsageError(`entry ${id} (${e.key}) is not in flight: it is settled (${e.state.state}), nothing to release`);
  const leases = await store.leases.list();
  if (holderMayBeAlive(e, leases)) {
    // A process of another machine cannot be seen from here: its run may have died (killed, cut off) with its lease
    // not yet expired, and then waiting for it to finish is waiting forever.
    const held = (l: (typeof leases)[number]) => !l.expired && l.machine === e.machine && l.pid === e.pid;
    const lease = aliveHere(e) === undefined ? leases.find(held) : undefined;
    const what = `entry ${id} (${e.key}) is held by a run that`;
    if (lease === undefined) {
      throw new UsageError(`${what} is alive (${describeHolderRun(e)})`, { hint: "Wait for it to finish: it settles its own entries." });
    }
    throw new UsageError(`${what} may be alive (${describeHolderRun(e)}); its lease expires ${lease.expiresAt.toISOString()} unless renewed`, {
      hint:
        `A live run renews its lease every ${LEASE_MS / 3000} s and settles its own entries; ` +
        `a dead one's expires within ${LEASE_MS / 1000} s. Run this again after that.`,
    });
  }
  await store.releaseEntry(id);
  report(deps, json, { released: "entry", id, key: e.key, input: e.input, state: e.state, machine: e.machine, user: e.user, pid: e.pid, command: e.command, since: e.since.toISOString() });
  if (!json) deps.io.err(`Its request may have reached the service: check with \`${["shipctl list shipments", ...serviceFlags(deps.globals)].join(" ")}\` (or addresses) before the row is sent again.\n`);
}

function report(deps: Deps, json: boolean, released: Record<string, unknown>): void {
  if (json) printJson(deps.io, released);
  else deps.io.out(`released ${released.released} ${released.id}: ${String(released.what ?? `${String(released.key)} (${String(released.input)})`)}, held by ${String(released.user)} on ${String(released.machine)}, pid ${String(released.pid)}, \`${String(released.command)}\`, since ${String(released.since)}\n`);
}
