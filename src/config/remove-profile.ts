// `shipctl profile remove NAME`: forgets a profile with its saved token and tables. Getting it back means giving the
// token again, so a terminal is asked first, and without one (or with --no-input) --yes is required, as for every
// question shipctl cannot ask.
import type { Deps } from "../deps.js";
import { CancelledError, UsageError } from "../errors.js";
import { printJson } from "../output/json.js";
import { profileChoice, profileNames, requireSavedProfile } from "./profile-choice.js";
import type { ConfigData } from "./schema.js";
import { profileOf } from "./profile-name.js";
import { resolveProfileName } from "./settings.js";
import { openConfigStore } from "./store.js";

/** `yes`: confirmed on the command line (--yes), so nothing is asked. */
export async function removeProfile(deps: Deps, name: string, yes: boolean): Promise<void> {
  const store = await openConfigStore(deps.env);
  const data = store.read();
  requireSavedProfile(data, name, "remove");
  if (!yes && !deps.canPrompt()) {
    const why = deps.globals.input ? "there is no terminal to ask on" : "--no-input was given";
    throw new UsageError(`removing profile ${name} needs a yes: pass --yes (${why})`, { hint: "see what it holds with: shipctl profile list" });
  }
  const saved = profileOf(data, name)!;
  if (!yes) {
    const where = saved.baseUrl ? ` (${saved.baseUrl})` : "";
    const ok = await deps.prompter.confirm(`Remove profile ${name}${where}, with its saved token and tables?`, { default: false });
    if (!ok) throw new CancelledError("nothing was removed");
  }

  const wasCurrent = data.currentProfile === name;
  // Removing the current profile names the one commands use from then on as current, while it exists: left unset,
  // the next `login --profile X` would make X current (the first login's rule), and plain commands would quietly
  // move to it. Chosen before anything is written, so a bad SHIPCTL_PROFILE changes nothing.
  const successor = wasCurrent ? profileUsedWithout(deps, data, store.path) : undefined;
  const after = await store.update((d) => {
    delete d.profiles[name];
    if (d.currentProfile !== name) return;
    if (successor !== undefined && profileOf(d, successor)) d.currentProfile = successor;
    else delete d.currentProfile;
  });
  deps.io.alert(`${deps.theme.err.ok("✓")} Removed profile ${name}${saved.token ? " and its saved token" : ""}\n`);

  // What the next run in this environment uses (a --profile flag belongs to this run only).
  const next = profileChoice(resolveProfileName({ globals: {}, env: deps.env, data: after, configPath: store.path }));
  const nextSaved = profileOf(after, next.name) !== undefined;
  if (wasCurrent || !nextSaved) {
    const left = profileNames(after);
    const fix = left.length ? `choose one with \`shipctl profile use NAME\` (profiles: ${left.join(", ")})` : "run `shipctl login`";
    deps.io.err(
      `${wasCurrent ? `It was the current profile: commands` : "Commands"} now use profile ${next.name} (${next.why})` +
        `${nextSaved ? "" : `, which is not saved: ${fix}`}.\n`,
    );
  }
  if (deps.globals.json) {
    printJson(deps.io, { profile: name, removed: true, was_current: wasCurrent, current_profile: after.currentProfile ?? null, in_use: { ...next, saved: nextSaved } });
  }
}

/** The profile a run without --profile uses once no profile is saved as current (the environment's, or the default). */
function profileUsedWithout(deps: Deps, data: ConfigData, configPath: string): string {
  const { currentProfile: _removed, ...rest } = data;
  return resolveProfileName({ globals: {}, env: deps.env, data: rest, configPath }).value;
}
