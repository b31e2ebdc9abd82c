// The shapes shared by the condition-report photo modules: what a folder yields, and what can be wrong with it.
import type { PhotoGroup, PhotoSide } from "../contract/index.js";

/** The two types the service accepts, judged by content. */
export type PhotoType = "jpeg" | "png";

export const CONTENT_TYPES: Record<PhotoType, string> = { jpeg: "image/jpeg", png: "image/png" };
export const EXTENSIONS: Record<PhotoType, string> = { jpeg: "jpg", png: "png" };

/** A photo that passed every check and will be sent. */
export interface Photo {
  group: PhotoGroup;
  side: PhotoSide;
  /** Absolute path of the bytes to send (a temporary copy after --fit). */
  path: string;
  /** Path relative to the report folder, as the user knows it (the original, even after --fit). */
  file: string;
  type: PhotoType;
  /** Size in bytes of what will be sent. */
  bytes: number;
  width: number;
  height: number;
  /** Set when --fit replaced the original with a smaller copy. */
  fitted?: FitNote;
  /** Set when --strip-location sent a copy without the GPS position the original has. */
  locationStripped?: boolean;
}

export interface FitNote {
  fromBytes: number;
  fromType: PhotoType;
  fromWidth: number;
  fromHeight: number;
  /** JPEG quality used, when the copy was recompressed as a JPEG. */
  quality?: number;
  /** Set when dropping metadata alone made it fit (pixels unchanged): what was dropped, in words. */
  dropped?: string[];
}

/** Something that stops the upload: the file, what is wrong, and what to do about it. */
export interface Problem {
  /** Path relative to the report folder; "" when the problem is the folder itself. */
  file: string;
  problem: string;
  fix: string;
  /** Set on notes that a batch may sum up in one line instead of one per photo. */
  kind?: "near-limit";
}

/** Group and side, in upload order: box front..right, then art front..right. */
export type Slot = Pick<Photo, "group" | "side">;

/** Where a photo's bytes went before, or go in this run from another folder too. */
export interface EarlierUse {
  shipmentId: number;
  set: number;
  /** The file that holds them, an absolute path. */
  file: string;
  /** The ledger's word on that set ("stored", "in_flight"), or "in_this_batch": another folder of this run. */
  state: "stored" | "in_flight" | "in_this_batch";
  /** When the ledger recorded it stored, or sent (ISO). */
  at?: string;
  /** The other folder of this run, as the user named it. */
  folder?: string;
}

export interface ReusedPhoto {
  /** The photo of this report, relative to its folder. */
  file: string;
  earlier: EarlierUse;
}
