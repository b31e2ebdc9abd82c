// How file and folder names map to groups and sides. Names are matched case-insensitively, and `-`, `_` and spaces
// are alike, because people name photos by hand ("Box Front.jpeg", "art_left.PNG", "BOX-TOP.jpg").
import { REPORT, type PhotoGroup, type PhotoSide } from "../contract/index.js";
import type { Slot } from "./report-types.js";

/** Files that operating systems and tools leave in folders; never photos. */
// "Icon\r" is the file macOS keeps a folder's custom icon in (Dropbox and Google Drive give their folders one);
// __MACOSX/ holds the "._" files of a zip made on a Mac, once unzipped on Windows or with unzip.
const SYSTEM_FILES = new Set(["thumbs.db", "desktop.ini", "ehthumbs.db", "icon\r", "__macosx"]);

/** Hidden files (".DS_Store", "._IMG_1.jpg" resource forks) and OS clutter are skipped without a word. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith(".") || SYSTEM_FILES.has(name.toLowerCase());
}

/** The name without its last extension ("Box Front.jpeg" -> "Box Front"). */
export function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter((w) => w !== "");
}

export function groupOf(name: string): PhotoGroup | undefined {
  const w = words(name);
  return w.length === 1 ? REPORT.groups.find((g) => g === w[0]) : undefined;
}

export function sideOf(name: string): PhotoSide | undefined {
  const w = words(stem(name));
  return w.length === 1 ? REPORT.sides.find((s) => s === w[0]) : undefined;
}

/** "box-front.jpg", "Art_Left.PNG", "box front.jpeg" -> group and side. */
export function flatSlotOf(name: string): Slot | undefined {
  const w = words(stem(name));
  if (w.length !== 2) return undefined;
  const group = REPORT.groups.find((g) => g === w[0]);
  const side = REPORT.sides.find((s) => s === w[1]);
  return group && side ? { group, side } : undefined;
}

/** Every slot in upload order: box front..right, then art front..right. */
export function uploadOrder(): Slot[] {
  return REPORT.groups.flatMap((group) => REPORT.sides.map((side) => ({ group, side })));
}

export function slotKey(slot: Slot): string {
  return `${slot.group}/${slot.side}`;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** Natural order, as file browsers show it: IMG_2 before IMG_10, case ignored. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
