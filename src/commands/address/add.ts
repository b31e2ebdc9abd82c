// `shipctl address add`: stores the address at most once (create-once.ts): a rerun prints the id an earlier run
// stored; otherwise verifies (unless --no-verify), then stores the address and prints its new id.
import type { Deps } from "../../deps.js";
import { InterruptedError } from "../../errors.js";
import type { AddressFlags } from "../../input/address-fields.js";
import { readAddressInput } from "../../input/address-input.js";
import { printJson } from "../../output/json.js";
import { addAddressOnce } from "../../addresses/create-once.js";
import { addressToStore, type StorePolicyFlags } from "../../addresses/store-policy.js";

export type AddFlags = AddressFlags & StorePolicyFlags & { forceNew?: boolean; wait?: boolean };

export async function run(deps: Deps, _args: string[], flags: AddFlags): Promise<void> {
  const address = await readAddressInput(deps, flags);
  const added = await addAddressOnce(deps, address, { wait: flags.wait !== false, forceNew: flags.forceNew === true }, (api) => addressToStore(deps, api, address, flags));
  if (added.kind === "earlier") {
    deps.io.err(
      added.settled
        ? `An earlier run's request to store this address lost its answer, but it was stored: address ${added.id}. Not stored again.\n`
        : `This address was stored by an earlier run: address ${added.id}. Not stored again (--force-new stores it once more).\n`,
    );
  } else if (added.foundAfterLoss) {
    deps.io.err(`Found it among the stored addresses: the request did take effect, and was not sent again.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { id: added.id, address: added.address, already_stored: added.kind === "earlier" });
  else deps.io.out(`${added.id}\n`);
  if (added.kind === "stored") deps.io.err(`Stored address ${added.id}.\n`);
  if (added.kind === "stored" && added.interrupted) {
    // Ctrl-C came while the request was on its way: it was let finish and recorded, so the id is printed above.
    throw new InterruptedError(`interrupted; the address was stored (address ${added.id}) before the run stopped`);
  }
}
