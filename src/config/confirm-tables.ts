// `shipctl config tables confirm`: accept the built-in tables (the sandbox's numbering) for this profile's service,
// after seeing them. The real service does not publish its numbering, so this is the user's call, made once and
// on purpose (contract-notes: a table never applies silently to a service that is not a sandbox).
import type { Deps } from "../deps.js";
import { CancelledError, UsageError } from "../errors.js";
import { SANDBOX_COUNTRIES, SANDBOX_SERVICES } from "../contract/index.js";
import { saveTables } from "./profile-tables.js";
import { printJson } from "../output/json.js";
import { tableWidth } from "../output/table.js";
import { openConfigContext, requireBaseUrl } from "./config-context.js";
import { renderCountries, renderServices } from "./show-tables.js";

/** `yes`: confirmed on the command line (--yes), so nothing is asked. */
export async function confirmTables(deps: Deps, yes: boolean): Promise<void> {
  const { store, settings } = await openConfigContext(deps);
  const profile = settings.profile.value;
  const baseUrl = requireBaseUrl(settings);
  if (!yes && !deps.canPrompt()) {
    const why = deps.globals.input ? "there is no terminal to ask on" : "--no-input was given";
    throw new UsageError(`confirming tables needs a yes: pass --yes (${why})`, {
      hint: "look at them first with: shipctl config tables show (on a sandbox), or shipctl config tables confirm at a terminal",
    });
  }
  if (!deps.globals.json) {
    const options = { theme: deps.theme.out, width: tableWidth(deps.io) };
    deps.io.out(`${renderCountries(SANDBOX_COUNTRIES, options)}\n${renderServices(SANDBOX_SERVICES, options)}`);
  }
  // Kept with --quiet when the prompt below asks about it.
  (yes ? deps.io.err : deps.io.alert)(
    `These are the built-in tables (the sandbox's numbering). ${baseUrl} may number countries and services differently: check with the service before relying on them.\n`,
  );
  if (!yes) {
    const ok = await deps.prompter.confirm(`Use these tables for ${baseUrl} (profile ${profile})?`, { default: false });
    if (!ok) throw new CancelledError("nothing was stored");
  }
  await saveTables(store, profile, baseUrl, { countries: SANDBOX_COUNTRIES, services: SANDBOX_SERVICES, source: "confirmed" });
  deps.io.alert(`${deps.theme.err.ok("✓")} Stored the built-in tables as confirmed for ${baseUrl} (profile ${profile})\n`);
  if (deps.globals.json) {
    printJson(deps.io, { profile, base_url: baseUrl, source: "confirmed", countries: SANDBOX_COUNTRIES, services: SANDBOX_SERVICES });
  }
}
