// `shipctl config tables show [countries|services]`: the tables that commands will use for this profile and service,
// and where they come from. Against a sandbox with nothing stored yet, this asks the sandbox (as commands would).
// The tables as people read them, which `config tables confirm` shows too.
import type { Deps } from "../deps.js";
import type { CountryEntry, ServiceEntry, Tables, TablesSource } from "../contract/index.js";
import { loadTables, UNCONFIRMED_TABLES } from "./profile-tables.js";
import { printJson } from "../output/json.js";
import { renderTable, tableWidth, type TableOptions } from "../output/table.js";
import { openConfigContext } from "./config-context.js";
import { profileFlag } from "./profile-name.js";
import type { TableKind } from "./tables-csv.js";

const SOURCE_TEXT: Record<TablesSource, string> = {
  sandbox: "the sandbox's own tables",
  imported: "imported by you",
  confirmed: "the built-in tables, confirmed by you",
  unconfirmed: "none confirmed: codes and names are refused, integers pass",
};

/** `kind`: one table, or both when undefined. */
export async function showTables(deps: Deps, kind: TableKind | undefined): Promise<void> {
  const { store, settings } = await openConfigContext(deps);
  const profile = settings.profile.value;
  const baseUrl = settings.baseUrl?.value ?? null;
  const place = { profile, token: settings.token?.value, caFile: settings.stored?.caFile };
  const tables: Tables = baseUrl
    ? // The `config tables` commands ask even a service remembered as no sandbox: it may have become one.
      await loadTables({ ...place, baseUrl, askAgain: true, store, run: deps })
    : UNCONFIRMED_TABLES;

  if (deps.globals.json) {
    printJson(
      deps.io,
      {
        profile,
        base_url: baseUrl,
        source: tables.source,
        ...(kind !== "services" ? { countries: tables.countries } : {}),
        ...(kind !== "countries" ? { services: tables.services } : {}),
      },
    );
    return;
  }
  const where = baseUrl ? `for ${baseUrl} (profile ${profile})` : `(profile ${profile} has no base URL)`;
  deps.io.err(`Tables ${where}: ${SOURCE_TEXT[tables.source]}\n`);
  if (tables.source === "unconfirmed") {
    deps.io.err(
      `To use codes and names: \`shipctl config tables import countries FILE.csv${profileFlag(profile)}\` (and services), or \`shipctl config tables confirm${profileFlag(profile)}\` for the built-in tables.\n`,
    );
    return;
  }
  const options = { theme: deps.theme.out, width: tableWidth(deps.io) };
  const parts: string[] = [];
  if (kind !== "services") parts.push(tables.countries.length ? renderCountries(tables.countries, options) : "(no countries)\n");
  if (kind !== "countries") parts.push(tables.services.length ? renderServices(tables.services, options) : "(no services)\n");
  deps.io.out(parts.join("\n"));
}

export function renderCountries(countries: readonly CountryEntry[], options: TableOptions): string {
  return renderTable(
    [
      { header: "ID", value: (c) => c.id, align: "right", keep: true },
      { header: "ALPHA2", value: (c) => c.alpha2, keep: true },
      { header: "ALPHA3", value: (c) => c.alpha3, keep: true },
      { header: "NAME", value: (c) => c.name },
      { header: "ALIASES", value: (c) => (c.aliases ?? []).join(" | ") },
    ],
    countries,
    options,
  );
}

export function renderServices(services: readonly ServiceEntry[], options: TableOptions): string {
  return renderTable(
    [
      { header: "ID", value: (s) => s.id, align: "right", keep: true },
      { header: "NAME", value: (s) => s.name },
      { header: "ALIASES", value: (s) => (s.aliases ?? []).join(" | ") },
    ],
    services,
    options,
  );
}
