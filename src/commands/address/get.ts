// `shipctl address get <id>`: one stored address, as a table for people or the service's record as JSON.
import type { StoredAddress } from "../../contract/index.js";
import type { Deps } from "../../deps.js";
import { callOptions } from "../../input/call-options.js";
import { enumLabels } from "../../input/enums.js";
import { parseId } from "../../input/ids.js";
import { printJson } from "../../output/json.js";
import { renderRecord, tableWidth } from "../../output/table.js";
import { formatTimestamp } from "../../output/time.js";

export async function run(deps: Deps, args: string[]): Promise<void> {
  const id = parseId(args[0] ?? "", "address id");
  const address = await (await deps.api()).getAddress(id, callOptions(deps, `Reading address ${id}`));
  if (deps.globals.json) {
    printJson(deps.io, address);
    return;
  }
  const labels = await enumLabels(deps);
  const rows = addressRows(address, labels.country);
  deps.io.out(renderRecord(rows, { theme: deps.theme.out, width: tableWidth(deps.io) }));
}

export function addressRows(a: StoredAddress, country: (id: number) => string): Array<[string, string]> {
  return [
    ["id", String(a.id)],
    ["name", a.name],
    ["email", a.email],
    ["phone", a.phone],
    ["line 1", a.line_1],
    ["line 2", a.line_2 ?? ""],
    ["city", a.city],
    ["region", a.region],
    ["post code", a.post_code],
    ["country", country(a.country)],
    ["created", formatTimestamp(a.created_at)],
    ["updated", formatTimestamp(a.updated_at)],
  ];
}
