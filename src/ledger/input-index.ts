// Which journal a run of an input file used last, kept in the config folder and keyed by the input's real path.
// A journal lives beside --results when it is given and beside the input otherwise (journal-location.ts), so a
// rerun that drops --results, or names another results file, would look only in places where the journal is not,
// start an empty one and create every row again. Recording "this input's journal is there" on every run lets any
// later run of the same file find it whatever --results says. One small file per input and command, written atomically
// (src/fs/atomic-file.ts) so a reader never sees half of it.
import { createHash } from "node:crypto";
import { access, mkdir, readFile, realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import { configDir } from "../config/paths.js";
import { writeFileAtomic } from "../fs/atomic-file.js";

interface IndexEntry {
  input: string;
  journal: string;
}

async function entryPath(kindSuffix: string, input: string, env: NodeJS.ProcessEnv): Promise<{ path: string; real: string }> {
  // The real path, so a symlink or another spelling of the same file finds the same entry.
  const real = await realpath(input).catch(() => resolve(input));
  const key = createHash("sha256").update(real).digest("hex").slice(0, 32);
  return { path: join(configDir(env), "journals", "inputs", `${key}${kindSuffix}.json`), real };
}

/** The journal last used for this input file, when it is recorded and still exists. */
export async function recordedJournalFor(kindSuffix: string, input: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const { path, real } = await entryPath(kindSuffix, input, env);
  let entry: Partial<IndexEntry>;
  try {
    entry = JSON.parse(await readFile(path, "utf8")) as Partial<IndexEntry>;
  } catch {
    // Never recorded, or unreadable: the run looks only where journal-location.ts says.
    return undefined;
  }
  if (entry.input !== real || typeof entry.journal !== "string") return undefined;
  try {
    await access(entry.journal);
    return entry.journal;
  } catch {
    // The journal was moved or deleted since: a deliberate fresh start.
    return undefined;
  }
}

/** Records the journal this input's run uses (see the top of this file). */
export async function recordJournalFor(kindSuffix: string, input: string, journal: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { path, real } = await entryPath(kindSuffix, input, env);
  const entry: IndexEntry = { input: real, journal: resolve(journal) };
  const text = JSON.stringify(entry) + "\n";
  const current = await readFile(path, "utf8").catch(() => undefined);
  if (current === text) return;
  await mkdir(join(configDir(env), "journals", "inputs"), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, text);
}
