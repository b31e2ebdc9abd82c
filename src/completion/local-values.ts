// The values completion looks up at TAB time, from what is on this machine only: statuses from the contract's enum,
// profile names and the Country/Service tables from the config file (config/peek-config.ts). The tables are those a
// command on this line would apply: the profile and base URL it would use (--profile, --base-url, SHIPCTL_PROFILE...,
// as config/settings.ts decides), and only when the profile keeps tables for that base URL. Never the network.
import { ShipmentStatus, shipmentStatusName } from "../contract/enums.js";
import type { CountryEntry } from "../contract/tables.js";
import { peekConfig } from "../config/peek-config.js";
import { configFilePath } from "../config/paths.js";
import { storedTablesFor } from "../config/profile-tables.js";
import type { ConfigData } from "../config/schema.js";
import { resolveSettings } from "../config/settings.js";
import type { Candidate, LookedUpValues } from "./candidates.js";

export function localValues(env: NodeJS.ProcessEnv): (source: LookedUpValues, given: Readonly<Record<string, string>>) => Candidate[] {
  let data: ConfigData | undefined;
  const config = () => (data ??= peekConfig(env));
  return (source, given) => {
    switch (source) {
      case "statuses":
        // Lower case, as a script would type them; the commands take any case, or the number.
        return Object.values(ShipmentStatus).map((s) => ({ value: shipmentStatusName(s).toLowerCase(), description: String(s) }));
      case "profiles":
        return Object.keys(config().profiles).sort().map((value) => ({ value }));
      case "services":
        return (tablesInUse(config(), env, given)?.services ?? []).map((s) => ({ value: s.name, description: `service ${s.id}` }));
      case "countries":
        return (tablesInUse(config(), env, given)?.countries ?? []).flatMap(countryWords);
    }
  };
}

function tablesInUse(data: ConfigData, env: NodeJS.ProcessEnv, given: Readonly<Record<string, string>>) {
  try {
    const settings = resolveSettings({ globals: { profile: given.profile, baseUrl: given.baseUrl }, env, data, configPath: configFilePath(env) });
    return settings.baseUrl && storedTablesFor(settings.stored?.tables, settings.baseUrl.value);
  } catch {
    // A profile name or base URL the command would refuse: it would apply no table either.
    return undefined;
  }
}

/** The ISO code and the name: a user types either. */
function countryWords(c: CountryEntry): Candidate[] {
  return [
    { value: c.alpha2, description: c.name },
    { value: c.name, description: `${c.alpha2}, country ${c.id}` },
  ];
}
