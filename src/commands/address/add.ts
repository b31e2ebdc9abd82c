// `shipctl address add`: stores the address at most once (addresses/create-once.ts): a rerun prints the id an earlier
// run stored; otherwise verifies (unless --no-verify), then stores the address and prints its new id. With --csv,
// every row's address (addresses/address-csv.ts).
import { Command } from "commander";
import type { StorePolicy } from "../../addresses/verification.js";
import type { CsvFlags } from "../../batch/run-options.js";
import type { Deps } from "../../deps.js";
import { InterruptedError } from "../../errors.js";
import type { AddressFlags } from "../../input/address-fields.js";
import { printJson } from "../../output/json.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";
import { CSV_HELP, addCsvOptions, parseItemMode, type CsvMode } from "../csv-mode.js";
import { ADDRESS_INPUT_FLAGS, INPUT_HELP, addressInputOptions, storePolicy, storePolicyOptions } from "./address-flags.js";

export type AddOptions =
  | CsvMode
  /** One address, from the flags and/or --file. */
  | {
      mode: "single";
      input: AddressFlags;
      store: StorePolicy;
      /** --force-new: store it even though an earlier run stored the same address. */
      forceNew: boolean;
      /** false with --no-wait: an earlier run's request still in flight is reported at once, not waited for. */
      wait: boolean;
    };

export function addCommand(ctx: CommandContext, run: VerbRun<AddOptions> = runAdd): Command {
  const command = new Command("add")
    .description("verify an address, then store it; prints the new address id")
    .addHelpText(
      "after",
      `${INPUT_HELP}

The address is verified first (unless --no-verify). A revision the service recommends is stored only with
--accept-recommended or after a yes at the prompt; without a terminal and without the flag, the command stops with
exit 6 and shows the revision. An invalid address is not stored (exit 6).

Output: the new id on stdout; with --json {"id": 12, "address": {...as stored}}.

Stored once: each address is recorded before it is sent, in the organization's ledger in the state folder
(docs/ledger.md, "Where it lives"). Running the same command again prints the id stored by the
earlier run (exit 0) and stores nothing. Where that ledger does not know it (another config folder, the address
typed with other case or spaces, a revision accepted earlier, a CSV run), the stored addresses are read first: the
same address, as given or as revised, prints its id and stores nothing. --force-new stores the same address once more.
The store request is never sent twice. If its answer is lost, the stored addresses are read back 2 s later: found,
the id is printed as usual (exit 0); not found yet, exit 7: the request is "in flight", since the service may still
be storing it until its settle time (printed; the longest the service may take, 5 minutes by default). Running the
command again settles it: found, its id; not stored by then, it is stored. Before the settle time the rerun waits,
with a countdown, reading the addresses back now and then; --no-wait makes it stop at once (exit 7) instead. A 5xx
the service itself answered (not a gateway's 502/503/504) ends the request: read back 5 s later, not found means
not stored (exit 7), and running the command again stores it at once.

Examples:
  shipctl address add --file gallery.json
  shipctl address add --file gallery.json --accept-recommended --json
  id=$(shipctl address add --file gallery.json --no-input)
`,
    );
  addressInputOptions(command);
  storePolicyOptions(command);
  addCsvOptions(command, { verifyFlags: false, sending: true, creates: true, singleLedger: "address" }).addHelpText("after", CSV_HELP);
  return command.action(verbAction(ctx, parseAdd, run));
}

export function parseAdd(args: string[], flags: AddressFlags & CsvFlags): AddOptions {
  const hint = "Without --csv one address is verified and stored; to check it without storing, run `shipctl address verify`.";
  const parsed = parseItemMode<AddressFlags>(args, flags, ADDRESS_INPUT_FLAGS, hint);
  return parsed.mode === "csv" ? parsed : { ...parsed, store: storePolicy(flags), forceNew: flags.forceNew === true, wait: flags.wait !== false };
}

export async function runAdd(options: AddOptions, deps: Deps): Promise<number | void> {
  if (options.mode === "csv") return (await import("../../addresses/address-csv.js")).runAddressAddCsv(deps, options.csv);
  const [{ readAddressInput }, { addAddressOnce }, { addressToStore }] = await Promise.all([
    import("../../input/address-input.js"),
    import("../../addresses/create-once.js"),
    import("../../addresses/verification.js"),
  ]);
  const address = await readAddressInput(deps, options.input);
  // Stored at most once (create-once.ts); what is stored follows the store policy (verification, a recommended revision).
  const added = await addAddressOnce(deps, address, { wait: options.wait, forceNew: options.forceNew }, (api) =>
    addressToStore(deps, api, address, options.store),
  );
  if (added.kind === "earlier") {
    deps.io.alert(
      added.settled
        ? `An earlier run's request to store this address lost its answer, but it was stored: address ${added.id}. Not stored again.\n`
        : added.listed
          ? `This address is already stored: address ${added.id} (found among the stored addresses). Not stored again (--force-new stores it once more).\n`
          : `This address was stored by an earlier run: address ${added.id}. Not stored again (--force-new stores it once more).\n`,
    );
  } else if (added.foundAfterLoss) {
    deps.io.err(`Found it among the stored addresses: the request did take effect, and was not sent again.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { id: added.id, address: added.address, already_stored: added.kind === "earlier" });
  else deps.io.out(`${added.id}\n`);
  if (added.kind === "stored") deps.io.alert(`Stored address ${added.id}.\n`);
  if (added.kind === "stored" && added.interrupted) {
    // Ctrl-C came while the request was on its way: it was let finish and recorded, so the id is printed above.
    throw new InterruptedError(`interrupted; the address was stored (address ${added.id}) before the run stopped`);
  }
}
