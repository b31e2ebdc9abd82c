// `shipctl ledger push`: moves this machine's local ledger of the organization into the shared one, so a team adopts
// it half-way without sending anything twice: a row this machine sent is then found by every machine. Idempotent:
// an entry the shared ledger has already is kept as it is, unless it records a failure this machine's entry settles
// (PostgresStore.adopt); pushing twice adds nothing. Refused while this machine
// has entries in flight: their outcome is not known yet, and another machine could not settle them; a rerun of their
// command settles them first.
//
// It lists the local store's settled entries (LocalStore.settled): LedgerStore lists only what is in flight, and a
// full listing is needed by this command alone.
import { LOCAL_LEDGER } from "../config/ledger-setting.js";
import { profileFlag } from "../config/profile-name.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { printJson } from "../output/json.js";
import { LocalStore } from "./local-store.js";
import { openSharedLedger } from "./open-store.js";
import { OrganizationLedger } from "./organization.js";
import { seenBy } from "./owner.js";
import type { Entry } from "./store.js";

const BATCH = 500;

export async function pushLedger(deps: Deps, json: boolean): Promise<void> {
  const { baseUrl, token, profile, ledger: settings = LOCAL_LEDGER } = await deps.connection();
  if (settings.kind === "local") {
    const flag = profileFlag(profile);
    throw new UsageError("ledger push moves this machine's entries into a shared ledger: set the profile's ledger and organization (or SHIPCTL_LEDGER and SHIPCTL_ORGANIZATION) first", {
      hint: `\`shipctl config set ledger postgres://shipctl@db.example/shipctl${flag}\` and \`shipctl config set organization NAME${flag}\`: docs/team.md says how to set up the team's ledger.`,
    });
  }
  // This token's organization's local ledger: a machine keeps one per organization met on the URL (organization.ts),
  // and another organization's entries must not become this one's in the shared ledger.
  const sees = seenBy(await deps.api(), { signal: deps.signal });
  const { dir } = await OrganizationLedger.open(deps.env, { baseUrl, token, sees, say: (t) => deps.io.err(t) });
  const local = new LocalStore(dir);
  const inFlight = await local.inFlight();
  if (inFlight.length > 0) {
    const inputs = [...new Set(inFlight.map((e) => e.input))];
    throw new UsageError(`this machine's ledger has ${inFlight.length} ${inFlight.length === 1 ? "entry" : "entries"} in flight (from ${inputs.slice(0, 3).join(", ")}${inputs.length > 3 ? ", ..." : ""}): nothing was pushed`, {
      hint: "Run their commands again with the local ledger (SHIPCTL_LEDGER=local) to settle them, then push.",
    });
  }
  const { store } = await openSharedLedger(settings, { dir, baseUrl, env: deps.env, say: (t) => deps.io.err(t) });
  const entries: Entry[] = [];
  for await (const bucket of local.settled()) entries.push(...bucket);
  let added = 0;
  for (let i = 0; i < entries.length; i += BATCH) added += (await store.adopt(entries.slice(i, i + BATCH))).length;
  const doc = { pushed: added, already: entries.length - added, from: dir, to: store.where };
  if (json) printJson(deps.io, doc);
  else deps.io.out(`pushed ${added} ${added === 1 ? "entry" : "entries"} to ${store.where}${doc.already > 0 ? `; ${doc.already} already there` : ""}\n`);
}
