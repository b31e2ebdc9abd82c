// Finds the photos of one report folder, in any of the layouts people use:
//   box/front.jpg ... art/right.png          (a folder per group, a file per side)
//   box-front.jpg, Art_Left.PNG, Box Top.jpeg (flat, group and side in the name)
//   --by-order: box/ and art/ with six photos each, sides taken in natural sort order (camera names like IMG_4471),
//               or a flat camera dump of twelve photos: the first six are the box, the next six the artwork.
// Discovery only names candidates; whether each slot has exactly one readable JPEG/PNG is decided by folder-check.ts.
import { readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { REPORT, type PhotoGroup } from "../contract/index.js";
import { flatSlotOf, groupOf, isIgnoredName, naturalCompare, sideOf, slotKey, uploadOrder } from "./side-names.js";
import type { Problem, Slot } from "./report-types.js";

export interface Candidate {
  slot: Slot;
  /** As the user sees it, relative to the report folder ("box/front.jpg"). */
  file: string;
  /** Where to read it (a symlink resolved). */
  path: string;
  /** Set when the file may not be read (a symlink leading outside the folder): the slot is taken, but by a problem. */
  refused?: Problem;
}

export interface Discovery {
  /** Candidates per slot key ("box/front"); a slot may have none or several. */
  candidates: Map<string, Candidate[]>;
  /** Files that name no side (relative paths), shown when a side is missing. */
  unrecognised: string[];
  /** Subfolders other than box/ and art/ (relative paths), never looked into: named when sides are missing. */
  otherFolders: string[];
  /** Files that took no slot (unrecognised names, a --by-order folder of the wrong count): checked when sides are missing. */
  unplaced: { file: string; path: string }[];
  problems: Problem[];
  /** False when the folder itself is missing or not a folder: nothing else is worth reporting. */
  readable: boolean;
}

type Entry = { name: string; file: string; path: string; isDir: boolean; refused?: Problem };

export async function discoverPhotos(folder: string, options: { byOrder?: boolean } = {}): Promise<Discovery> {
  const found: Discovery = { candidates: new Map(), unrecognised: [], otherFolders: [], unplaced: [], problems: [], readable: false };
  let realRoot: string;
  try {
    realRoot = await realpath(resolve(folder));
    if (!(await stat(realRoot)).isDirectory()) {
      found.problems.push({ file: "", problem: "this is not a folder", fix: "give the folder that holds the 12 photos" });
      return found;
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // The path looked at is named: a manifest's folders are relative to the manifest, not to the working folder.
    found.problems.push(
      code === "ENOENT" || code === "ENOTDIR"
        ? { file: "", problem: "no such folder", fix: `check the path: there is no folder ${resolve(folder)}` }
        : { file: "", problem: `the folder cannot be opened (${code ?? String(e)})`, fix: "check its permissions" },
    );
    return found;
  }
  found.readable = true;
  const top = await listFolder(realRoot, "", realRoot, found.problems);
  const groupDirs = new Map<PhotoGroup, Entry[]>();
  for (const entry of top) {
    if (entry.refused && groupOf(entry.name)) found.problems.push(entry.refused);
    const group = entry.isDir && !entry.refused ? groupOf(entry.name) : undefined;
    if (group) groupDirs.set(group, [...(groupDirs.get(group) ?? []), entry]);
  }
  for (const [group, dirs] of groupDirs) {
    if (dirs.length > 1) {
      found.problems.push({
        file: dirs.map((d) => d.file).join(", "),
        problem: `${dirs.length} folders for the ${group} photos`,
        fix: `keep one ${group}/ folder and move the photos into it`,
      });
    }
  }
  if (options.byOrder && groupDirs.size === 0) discoverFlatByOrder(found, top);
  else if (options.byOrder) await discoverByOrder(found, groupDirs, realRoot);
  else await discoverNamed(found, top, groupDirs, realRoot);
  return found;
}

async function discoverNamed(found: Discovery, top: Entry[], groupDirs: Map<PhotoGroup, Entry[]>, realRoot: string) {
  for (const entry of top) {
    if (entry.isDir && !groupOf(entry.name)) found.otherFolders.push(entry.file);
    if (entry.isDir || (entry.refused && groupOf(entry.name))) continue; // a refused group folder is reported already
    const slot = flatSlotOf(entry.name);
    if (slot) add(found, { slot, file: entry.file, path: entry.path, refused: entry.refused });
    else if (entry.refused) found.problems.push(entry.refused);
    else unrecognised(found, entry);
  }
  for (const [group, dirs] of groupDirs) {
    for (const dir of dirs) {
      for (const entry of await listFolder(dir.path, dir.file, realRoot, found.problems)) {
        if (entry.isDir) continue;
        const side = sideOf(entry.name);
        const flat = flatSlotOf(entry.name);
        if (side) add(found, { slot: { group, side }, file: entry.file, path: entry.path, refused: entry.refused });
        else if (flat && flat.group === group) add(found, { slot: flat, file: entry.file, path: entry.path, refused: entry.refused });
        else if (entry.refused) found.problems.push(entry.refused);
        else if (flat) {
          found.problems.push({
            file: entry.file,
            problem: `an ${flat.group} photo inside the ${group}/ folder`,
            fix: `move it to ${flat.group}/${flat.side} (or rename it if it really shows the ${group})`,
          });
        } else unrecognised(found, entry);
      }
    }
  }
}

async function discoverByOrder(found: Discovery, groupDirs: Map<PhotoGroup, Entry[]>, realRoot: string) {
  for (const group of REPORT.groups) {
    const dirs = groupDirs.get(group);
    if (!dirs) {
      found.problems.push({
        file: `${group}/`,
        problem: `missing: --by-order needs ${article(group)} ${group}/ folder`,
        fix: `put the six ${group} photos in ${group}/ (front, back, top, bottom, left, right in name order)`,
      });
      continue;
    }
    if (dirs.length > 1) continue; // already reported
    const dir = dirs[0]!;
    // listFolder gives them in name order.
    const files = (await listFolder(dir.path, dir.file, realRoot, found.problems)).filter((e) => !e.isDir);
    const slots = REPORT.sides.map((side) => ({ group, side }));
    placeInOrder(found, files, slots, { file: `${dir.file}/`, where: "", fix: `keep exactly one photo per side in ${dir.file}/, named so they sort front, back, top, bottom, left, right` });
  }
}

/** A camera dump: twelve photos side by side, in name order the six of the box, then the six of the artwork. */
function discoverFlatByOrder(found: Discovery, top: Entry[]): void {
  const files = top.filter((e) => !e.isDir);
  const slots = uploadOrder();
  // Name order would put art-back.jpg first, as the box front: names that say their side must be read as such.
  const named = files.filter((f) => flatSlotOf(f.name));
  if (named.length > 0) {
    found.problems.push({
      file: "",
      problem: `${named.length} file names say their group and side (${listNames(named.map((f) => f.name))}), but --by-order takes sides from the name order`,
      fix: "drop --by-order (the names say the sides), or rename the photos as the camera did",
    });
    return;
  }
  const fix = `keep the ${slots.length} photos of the report, named so they sort box front ... box right, then art front ... art right (or put six in box/ and six in art/)`;
  placeInOrder(found, files, slots, { file: "", where: " in the folder", fix });
}

/** `files` take `slots` in their order; when the counts differ, that is the problem and the files are left unplaced. */
function placeInOrder(found: Discovery, files: readonly Entry[], slots: readonly Slot[], said: { file: string; where: string; fix: string }): void {
  if (files.length !== slots.length) {
    found.problems.push({ file: said.file, problem: `${files.length} photos${said.where} (${listNames(files.map((f) => f.name))}); --by-order needs exactly ${slots.length}`, fix: said.fix });
    for (const f of files) if (!f.refused) found.unplaced.push(f);
    return;
  }
  files.forEach((f, i) => add(found, { slot: slots[i]!, file: f.file, path: f.path, refused: f.refused }));
}

function unrecognised(found: Discovery, entry: Entry): void {
  found.unrecognised.push(entry.file);
  found.unplaced.push(entry);
}

/** At most a dozen names: a folder of hundreds is named by its count. */
export function listNames(names: readonly string[]): string {
  if (names.length === 0) return "none";
  const shown = names.slice(0, 12).join(", ");
  return names.length > 12 ? `${shown} and ${names.length - 12} more` : shown;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

function add(found: Discovery, candidate: Candidate): void {
  const key = slotKey(candidate.slot);
  found.candidates.set(key, [...(found.candidates.get(key) ?? []), candidate]);
}

/**
 * Lists a folder, skipping hidden files and OS clutter, following symlinks only when they stay inside the report.
 * Links that may not be followed come back with `refused` set, so a refused photo still takes its slot.
 */
async function listFolder(dirPath: string, relDir: string, realRoot: string, problems: Problem[]): Promise<Entry[]> {
  let dirents;
  try {
    dirents = await readdir(dirPath, { withFileTypes: true });
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? String(e);
    problems.push({ file: relDir, problem: `${relDir ? "" : "the folder "}cannot be read (${why})`, fix: "check its permissions" });
    return [];
  }
  const entries: Entry[] = [];
  for (const d of dirents) {
    if (isIgnoredName(d.name)) continue;
    const file = relDir ? `${relDir}/${d.name}` : d.name;
    const path = join(dirPath, d.name);
    if (d.isSymbolicLink()) {
      const link = await followLink(path, file, realRoot);
      entries.push("refused" in link ? { name: d.name, file, path, isDir: false, refused: link.refused } : { name: d.name, file, ...link });
    } else if (d.isDirectory() || d.isFile()) {
      entries.push({ name: d.name, file, path, isDir: d.isDirectory() });
    }
  }
  return entries.sort((a, b) => naturalCompare(a.name, b.name));
}

/** Where a symbolic link leads, or why it may not be followed. */
async function followLink(path: string, file: string, realRoot: string): Promise<{ path: string; isDir: boolean } | { refused: Problem }> {
  const target = await realpath(path).catch(() => undefined);
  if (!target) return { refused: { file, problem: "a symbolic link to a file that does not exist", fix: "copy the photo into the folder in its place" } };
  if (!isInside(realRoot, target)) {
    return { refused: { file, problem: `a symbolic link leading outside the folder (to ${target}); refused`, fix: "copy the photo into the folder instead of linking to it" } };
  }
  try {
    return { path: target, isDir: (await stat(target)).isDirectory() };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    return { refused: { file, problem: `a symbolic link to a file that cannot be read (${code})`, fix: "check its permissions, or copy the photo into the folder in its place" } };
  }
}

/** Whether `target` lies within the folder `root` (not the folder itself). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
