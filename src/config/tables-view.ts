// Country and Service tables as people read them, shared by `config tables show` and `config tables confirm`.
import type { CountryEntry, ServiceEntry, TablesSource } from "../contract/index.js";
import { renderTable, type TableOptions } from "../output/table.js";

export const SOURCE_TEXT: Record<TablesSource, string> = {
  sandbox: "the sandbox's own tables",
  imported: "imported by you",
  confirmed: "the built-in tables, confirmed by you",
  unconfirmed: "none confirmed: codes and names are refused, integers pass",
};

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
