// Country and Service tables as people read them, shared by `config tables show` and `config tables confirm`.
import type { CountryEntry, ServiceEntry, TablesSource } from "../../contract/index.js";
import { UsageError } from "../../errors.js";
import { renderTable, type TableOptions } from "../../output/table.js";
import type { TableKind } from "../../config/tables-csv.js";

export const SOURCE_TEXT: Record<TablesSource, string> = {
  sandbox: "the sandbox's own tables",
  imported: "imported by you",
  confirmed: "the built-in tables, confirmed by you",
  unconfirmed: "none confirmed: codes and names are refused, integers pass",
};

/** "countries", "country", "services", "service" (any case) -> the table kind. */
export function tableKind(input: string): TableKind {
  const word = input.trim().toLowerCase();
  if (word === "countries" || word === "country") return "countries";
  if (word === "services" || word === "service") return "services";
  throw new UsageError(`unknown table "${input}"`, { hint: "the tables are: countries, services" });
}

export function renderCountries(countries: readonly CountryEntry[], options: TableOptions): string {
  return renderTable(
    [
      { header: "ID", value: (c: CountryEntry) => c.id, align: "right", keep: true },
      { header: "ALPHA2", value: (c: CountryEntry) => c.alpha2, keep: true },
      { header: "ALPHA3", value: (c: CountryEntry) => c.alpha3, keep: true },
      { header: "NAME", value: (c: CountryEntry) => c.name },
      { header: "ALIASES", value: (c: CountryEntry) => (c.aliases ?? []).join(" | ") },
    ],
    countries,
    options,
  );
}

export function renderServices(services: readonly ServiceEntry[], options: TableOptions): string {
  return renderTable(
    [
      { header: "ID", value: (s: ServiceEntry) => s.id, align: "right", keep: true },
      { header: "NAME", value: (s: ServiceEntry) => s.name },
      { header: "ALIASES", value: (s: ServiceEntry) => (s.aliases ?? []).join(" | ") },
    ],
    services,
    options,
  );
}
