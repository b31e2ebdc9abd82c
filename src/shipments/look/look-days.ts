// The look's window for this run (config/look-days.ts says where it comes from).
import type { Deps } from "../../deps.js";
import { openConfigStore } from "../../config/store.js";
import { resolveSettings } from "../../config/settings.js";
import { resolveLookDays } from "../../config/look-days.js";

export async function lookDays(deps: Pick<Deps, "env" | "globals">): Promise<number> {
  const store = await openConfigStore(deps.env);
  const stored = resolveSettings({ globals: deps.globals, env: deps.env, data: store.read(), configPath: store.path }).stored;
  return resolveLookDays(deps.env, stored).days;
}
