// `shipctl address verify`: asks the service whether an address is deliverable. Exit 0 only for a valid address;
// 6 when the service finds it invalid or proposes a revision (the result is still printed, as JSON with --json).
import type { Deps } from "../../deps.js";
import { ExitCode } from "../../errors.js";
import type { AddressFlags } from "../../input/address-fields.js";
import { readAddressInput } from "../../input/address-input.js";
import { renderDiff } from "../../output/diff.js";
import { printJson } from "../../output/json.js";
import { verifyWithService, type VerificationResult } from "../../addresses/verification.js";

export async function run(deps: Deps, _args: string[], flags: AddressFlags): Promise<ExitCode> {
  const address = await readAddressInput(deps, flags);
  const result = await verifyWithService(deps, await deps.api(), address);
  if (deps.globals.json) printJson(deps.io, result);
  else deps.io.out(describe(deps, result));
  if (result.valid) return ExitCode.Ok;
  deps.io.err(
    result.recommended
      ? "The service recommends a revision: store it with `shipctl address add ... --accept-recommended`, or correct the input.\n"
      : "The service will not accept this address as it is: correct it and verify again.\n",
  );
  return ExitCode.Rejected;
}

function describe(deps: Deps, r: VerificationResult): string {
  const t = deps.theme.out;
  if (r.valid) return `${t.ok("valid")}: the service verified the address\n`;
  const verdict = `${t.error(r.recommended ? "revision recommended" : "invalid")} (status ${r.status} ${r.status_name}): ${r.message}\n`;
  if (!r.recommended) return verdict;
  return verdict + renderDiff(r.changes.map((c) => ({ field: c.field, before: c.from, after: c.to })), { theme: t });
}
