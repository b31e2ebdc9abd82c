// `shipctl profile list`: every saved profile (base URL, whether a token is saved, sandbox or not as the profile
// knows it) and which one this run uses, and why. No network, and no token, not even masked: `auth status` shows the
// one in use.
import type { Deps } from "../deps.js";
import { printJson } from "../output/json.js";
import { renderTable, tableWidth } from "../output/table.js";
import { profileChoice, profileNames, type ProfileChoice } from "./profile-choice.js";
import { sandboxKnown } from "./profile-tables.js";
import { profileOf } from "./profile-name.js";
import { resolveProfileName } from "./settings.js";
import { openConfigStore } from "./store.js";

export interface ProfileEntry {
  name: string;
  base_url: string | null;
  token_saved: boolean;
  /** null: not known (never asked, or no base URL). */
  sandbox: boolean | null;
  /** The config file's currentProfile (`profile use`). */
  current: boolean;
  /** The profile this run uses (--profile and SHIPCTL_PROFILE override the current one). */
  in_use: boolean;
}

export async function listProfiles(deps: Deps): Promise<void> {
  const store = await openConfigStore(deps.env);
  const data = store.read();
  const inUse = profileChoice(resolveProfileName({ globals: deps.globals, env: deps.env, data, configPath: store.path }));
  const profiles: ProfileEntry[] = profileNames(data).map((name) => {
    const saved = profileOf(data, name)!;
    return {
      name,
      base_url: saved.baseUrl ?? null,
      token_saved: Boolean(saved.token),
      sandbox: sandboxKnown(saved, saved.baseUrl) ?? null,
      current: data.currentProfile === name,
      in_use: inUse.name === name,
    };
  });

  if (deps.globals.json) {
    printJson(deps.io, { profiles, in_use: { ...inUse, saved: profileOf(data, inUse.name) !== undefined }, current_profile: data.currentProfile ?? null });
    return;
  }
  if (profiles.length === 0) {
    deps.io.err("No profile is saved yet: run `shipctl login` (or `shipctl login --profile NAME`).\n");
    return;
  }
  deps.io.out(
    renderTable(
      [
        { header: "CURRENT", value: (p) => currentText(p, inUse), keep: true },
        { header: "NAME", value: (p) => p.name, keep: true },
        { header: "BASE URL", value: (p) => p.base_url ?? "-" },
        { header: "TOKEN", value: (p) => (p.token_saved ? "saved" : "-") },
        { header: "SANDBOX", value: (p) => (p.sandbox === null ? "?" : p.sandbox ? "yes" : "no") },
      ],
      profiles,
      { theme: deps.theme.out, width: tableWidth(deps.io) },
    ),
  );
  if (!profiles.some((p) => p.in_use)) {
    deps.io.err(`This run uses profile ${inUse.name} (${inUse.why}), which is not saved: \`shipctl login --profile ${inUse.name}\` creates it.\n`);
  }
}

/** "* SHIPCTL_PROFILE" on the profile in use; the saved current profile, when something overrides it, says so. */
function currentText(p: ProfileEntry, inUse: ProfileChoice): string {
  if (p.in_use) return `* ${inUse.why}`;
  if (p.current) return `overridden by ${inUse.why}`;
  return "";
}
