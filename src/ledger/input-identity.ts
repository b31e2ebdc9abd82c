// The locks a run over an input takes beside its book's own: by what the input IS, not by the path it was named by.
// A book is found by path (beside the file, or beside --results), so two runs at once on one file under two names (a
// symlink, a hard link) or on a copy of it would each open a book of their own, both empty, and send every row twice.
// So a file is also locked by its device and inode (every name of the same file) and by its content (a copy), and
// stdin by its content. Locks live in the config folder: they guard this machine's runs.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { configDir } from "../config/paths.js";
import type { BookKind } from "./book-lines.js";

export interface InputLock {
  path: string;
  what: string;
}

export interface LockedInput {
  /** How the input is named in messages. */
  name: string;
  /** The file read (for stdin, its private copy). */
  path: string;
  stdin: boolean;
  /** SHA-256 of the bytes when already known (stdin). */
  digest?: string;
}

async function digestOf(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * `readContent: false` (a dry run, which only looks at the locks): the content lock only when the digest is known
 * already, so a 100,000-row file is not read once more just to look (its chunks add some 20 MB to the peak).
 */
export async function inputLocks(kind: BookKind, input: LockedInput, env: NodeJS.ProcessEnv, o: { readContent: boolean } = { readContent: true }): Promise<InputLock[]> {
  const dir = join(configDir(env), "journals", "locks");
  const digest = input.digest ?? (o.readContent ? await digestOf(input.path) : undefined);
  const content = digest === undefined ? [] : [{ path: join(dir, `${kind}-content-${digest.slice(0, 32)}.lock`), what: `${input.stdin ? "the same input" : `a file with the same content as ${input.name}`}` }];
  if (input.stdin) return content;
  const info = await stat(input.path);
  // Some file systems give no inode (0): the content lock still stands.
  if (info.ino === 0) return content;
  return [{ path: join(dir, `${kind}-file-${info.dev}-${info.ino}.lock`), what: `${input.name} (the same file, under any of its names)` }, ...content];
}
