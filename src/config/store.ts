// The config file: read and validated on every use, written atomically (fs/atomic-file.ts: temp file + rename), mode
// 0600, in a directory created 0700, as conf wrote it before (tab-indented JSON), so files written by either read
// the same.
import { chmodSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { UsageError, messageOf } from "../errors.js";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { CONFIG_FILE_NAME, configDir } from "./paths.js";
import { ConfigDataSchema, type ConfigData } from "./schema.js";
import { parseConfig } from "./peek-config.js";

export interface ConfigStore {
  /** Absolute path of the config file (it may not exist yet). */
  readonly path: string;
  /** A validated snapshot of the file (empty when there is no file). */
  read(): ConfigData;
  /** Read, change, write back atomically; returns what was written. */
  update(change: (data: ConfigData) => void): Promise<ConfigData>;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export async function openConfigStore(env: NodeJS.ProcessEnv): Promise<ConfigStore> {
  const dir = configDir(env);
  const path = join(dir, CONFIG_FILE_NAME);
  ensureDirectory(dir);
  tightenFileMode(path);

  const read = (): ConfigData => {
    let raw: unknown = {};
    try {
      raw = parseConfig(readFileSync(path, "utf8"));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw unreadable(path, e);
    }
    const parsed = ConfigDataSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const at = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
      throw new UsageError(`the config file ${path} is not valid: ${at}: ${issue.message}`, {
        hint: "fix that entry by hand, or delete the file and run `shipctl login` again",
      });
    }
    return parsed.data;
  };

  return {
    path,
    read,
    async update(change) {
      const data = read();
      change(data);
      try {
        // writeFileAtomic writes every file 0600, readable by its owner only: the file holds tokens.
        await writeFileAtomic(path, JSON.stringify(data, undefined, "\t"));
      } catch (e) {
        throw new UsageError(`cannot write the config file ${path}: ${messageOf(e)}`, {
          hint: "check the permissions of that directory, or point SHIPCTL_CONFIG_DIR at a writable one",
        });
      }
      return data;
    },
  };
}

function ensureDirectory(dir: string): void {
  try {
    // `mode` applies only to directories created here; an existing directory is left as its owner set it.
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  } catch (e) {
    throw new UsageError(`cannot create the config directory ${dir}: ${messageOf(e)}`, {
      hint: "point SHIPCTL_CONFIG_DIR at a directory you can write",
    });
  }
}

/** A file left readable by others (created by hand or by an old version) is narrowed to 0600: it holds tokens. */
function tightenFileMode(path: string): void {
  if (process.platform === "win32") return;
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, FILE_MODE);
  } catch {
    // No file yet (the first save writes it 0600), or not ours to change: nothing to tighten.
  }
}

function unreadable(path: string, e: unknown): UsageError {
  const syntax = e instanceof SyntaxError;
  return new UsageError(`cannot read the config file ${path}: ${syntax ? "it is not valid JSON" : messageOf(e)}`, {
    hint: syntax ? "fix the JSON by hand, or delete the file and run `shipctl login` again" : undefined,
    cause: e,
  });
}
