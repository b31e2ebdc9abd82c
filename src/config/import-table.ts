// `shipctl config tables import countries|services FILE.csv`: the user's own table for this profile's service.
// Every row is checked first; one bad row means nothing is imported (exit 2, each problem named by row).
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { loadTables, saveTables } from "./profile-tables.js";
import { parseCountriesCsv, parseServicesCsv, type TableKind } from "./tables-csv.js";
import { readStdinText, readTextFile } from "../fs/input-guard.js";
import { printJson } from "../output/json.js";
import { openConfigContext, requireBaseUrl } from "./config-context.js";

/** `file`: a CSV file's path, or "-" for stdin. */
export async function importTable(deps: Deps, kind: TableKind, file: string): Promise<void> {
  const text = await readInput(deps, file);
  const name = file === "-" ? "stdin" : file;
  const parsed =
    kind === "countries" ? { countries: await parseCountriesCsv(text, name) } : { services: await parseServicesCsv(text, name) };
  const count = (parsed.countries ?? parsed.services ?? []).length;

  const { store, settings } = await openConfigContext(deps);
  const profile = settings.profile.value;
  const baseUrl = requireBaseUrl(settings);
  // The other table is kept as it is now (stored, or the sandbox's own), so importing one never blanks the other.
  // The `config tables` commands ask even a service remembered as no sandbox: it may have become one.
  const place = { profile, baseUrl, token: settings.token?.value, caFile: settings.stored?.caFile };
  const current = await loadTables({ ...place, askAgain: true, store, run: deps });
  const countries = parsed.countries ?? current.countries;
  const services = parsed.services ?? current.services;
  await saveTables(store, profile, baseUrl, { countries, services, source: "imported" });

  deps.io.alert(`${deps.theme.err.ok("✓")} Imported ${count} ${kind} into profile ${profile} for ${baseUrl}\n`);
  const other = kind === "countries" ? "services" : "countries";
  if ((kind === "countries" ? services : countries).length === 0) {
    deps.io.err(`There is no ${other} table yet: ${other} names are refused (integers pass) until you import one.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { profile, base_url: baseUrl, table: kind, count, source: "imported" });
}

async function readInput(deps: Deps, file: string): Promise<string> {
  if (file === "-") {
    return await readStdinText(deps.io.stdin, { firstLine: true, signal: deps.signal });
  }
  try {
    return await readTextFile(file, file, "a CSV file", { firstLine: true });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : String(e);
    throw new UsageError(`cannot read ${file}: ${why}`, { hint: "give the path of a CSV file, or - for stdin" });
  }
}
