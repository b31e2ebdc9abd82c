// Logging out (`shipctl logout`): forgets the profile's token and keeps its base URL (logging in again asks only for
// a token).
// Succeeds when there was nothing to forget: the end state the user asked for holds either way.
import type { Deps } from "../deps.js";
import { envValue } from "../env.js";
import { profileInUse } from "./config-context.js";
import { profileOf } from "./profile-name.js";
import { printJson } from "../output/json.js";

export async function removeToken(deps: Deps): Promise<void> {
  const { store, data, profile } = await profileInUse(deps);
  const saved = profileOf(data, profile);
  const hadToken = Boolean(saved?.token);
  if (hadToken) {
    await store.update((d) => {
      const p = profileOf(d, profile);
      if (p) delete p.token;
    });
    const kept = saved?.baseUrl ? ` (base URL ${saved.baseUrl} kept)` : "";
    deps.io.alert(`${deps.theme.err.ok("✓")} Logged out of profile ${profile}: token removed${kept}\n`);
  } else {
    deps.io.alert(`Profile ${profile} was not logged in: nothing to remove.\n`);
  }
  if (envValue(deps.env, "SHIPCTL_TOKEN") !== undefined) {
    deps.io.err(`${deps.theme.err.warn("Note:")} SHIPCTL_TOKEN is still set in this environment, and commands will use it.\n`);
  }
  if (deps.globals.json) printJson(deps.io, { profile, logged_out: hadToken });
}
