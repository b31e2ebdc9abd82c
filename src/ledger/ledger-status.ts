// `shipctl ledger status`: which store the organization's ledger is in, whether it answers, its schema version, and
// the entries in flight and leases held, with who holds them (machine, user, command, since) and the ids
// `ledger unlock` takes. Data on stdout (a table, or --json); nothing is written.
import { LOCAL_LEDGER } from "../config/ledger-setting.js";
import type { Deps } from "../deps.js";
import { errorJson, ExitCode, LedgerUnavailable, type ErrorJson } from "../errors.js";
import { printJson } from "../output/json.js";
import { aliveHere } from "./holder.js";
import { holderMayBeAlive } from "./postgres-leases.js";
import { describeLedger } from "./ledger-settings.js";
import { LocalStore } from "./local-store.js";
import { openSharedLedger } from "./open-store.js";
import { ledgerDir, OrganizationLedger } from "./organization.js";
import { seenBy } from "./owner.js";

interface HeldView {
  id: number | null;
  kind: "entry" | "lease";
  what: string;
  machine: string | null;
  user: string | null;
  pid: number | null;
  command: string | null;
  since: string | null;
  /** A lease past its expiry, or a holder of this machine whose process is dead: `ledger unlock` may release it. */
  stale: boolean;
}

export async function showLedgerStatus(deps: Deps, json: boolean): Promise<number> {
  const { baseUrl, token, ledger: settings = LOCAL_LEDGER } = await deps.connection();
  const dir = ledgerDir(deps.env, { baseUrl });
  let doc: { store: "local" | "postgres"; where: string; reachable: boolean; schema_version: number | null; held: HeldView[]; error?: ErrorJson };
  if (settings.kind === "local") {
    // This token's organization's ledger, of those this machine keeps for the URL (organization.ts), as a run finds it.
    const sees = seenBy(await deps.api(), { signal: deps.signal });
    const own = (await OrganizationLedger.open(deps.env, { baseUrl, token, sees, say: (t) => deps.io.err(t) })).dir;
    const entries = await new LocalStore(own).inFlight();
    doc = {
      store: "local",
      where: own,
      reachable: true,
      schema_version: null,
      held: entries.map((e) => ({ id: null, kind: "entry", what: `${e.key} (${e.input})`, machine: null, user: null, pid: null, command: null, since: e.state.state === "in_flight" ? e.state.at : null, stale: false })),
    };
  } else {
    const where = describeLedger(settings, deps.env);
    try {
      const { store, schema } = await openSharedLedger(settings, { dir, baseUrl, env: deps.env, say: (t) => deps.io.err(t) });
      const leases = await store.leases.list();
      const entries = await store.heldEntries();
      doc = {
        store: "postgres",
        where,
        reachable: true,
        schema_version: schema.version,
        held: [
          ...entries.map((e): HeldView => ({ id: e.id, kind: "entry", what: `${e.key} (${e.input})`, machine: e.machine, user: e.user, pid: e.pid, command: e.command, since: e.since.toISOString(), stale: !holderMayBeAlive(e, leases) })),
          ...leases.map((l): HeldView => ({ id: l.id, kind: "lease", what: l.what, machine: l.machine, user: l.user, pid: l.pid, command: l.command, since: l.since.toISOString(), stale: l.expired || aliveHere(l) === false })),
        ],
      };
    } catch (e) {
      if (!(e instanceof LedgerUnavailable)) throw e;
      // The failure as every command's --json gives it (`.error.code`), not its message alone: the run exits 7.
      doc = { store: "postgres", where, reachable: false, schema_version: null, held: [], error: errorJson(e) };
    }
  }
  if (json) printJson(deps.io, doc);
  else {
    // A shared ledger's `where` names its store already ("postgres db.example/shipctl, organization ...").
    const store = doc.store === "local" ? `local ${doc.where}` : doc.where;
    deps.io.out(`store:     ${store}\nreachable: ${doc.reachable ? "yes" : "no"}\n`);
    if (doc.schema_version !== null) deps.io.out(`schema:    version ${doc.schema_version}\n`);
    if (doc.reachable) deps.io.out(doc.held.length === 0 ? "in flight: nothing\n" : "in flight:\n");
    for (const h of doc.held) {
      const who = h.machine === null ? "" : `  ${h.user} on ${h.machine}, pid ${h.pid}, \`${h.command}\``;
      deps.io.out(`  ${h.id === null ? "-" : h.id}  ${h.kind}  ${h.what}${who}${h.since ? `, since ${h.since}` : ""}${h.stale ? "  (holder gone: `ledger unlock` may release it)" : ""}\n`);
    }
    if (doc.error) deps.io.err(`${doc.error.message}\n`);
  }
  return doc.reachable ? ExitCode.Ok : ExitCode.Unavailable;
}
