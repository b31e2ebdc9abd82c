// --strip-location (or the profile's stripLocation): the photos are sent without their GPS position, which is often
// a collector's home. Each photo that has one is copied without it into the fit workspace, byte for byte otherwise
// (photo-metadata.ts: no re-encoding); photos --fit already copied were stripped while fitting.
import { readFile } from "node:fs/promises";
import { writeCopy } from "./fit.js";
import { stripLocation } from "./photo-metadata.js";
import type { Photo } from "./report-types.js";

/** The photos, those with a GPS position replaced by copies in `dir` without it. */
export async function withoutLocations(photos: readonly Photo[], dir: string, signal?: AbortSignal): Promise<Photo[]> {
  const out: Photo[] = [];
  for (const photo of photos) {
    signal?.throwIfAborted();
    out.push(photo.fitted ? photo : await withoutLocation(photo, dir));
  }
  return out;
}

async function withoutLocation(photo: Photo, dir: string): Promise<Photo> {
  const { data, stripped } = stripLocation(await readFile(photo.path), photo.type);
  if (!stripped) return photo;
  return { ...photo, path: await writeCopy(dir, photo, photo.type, data), bytes: data.length, locationStripped: true };
}

/** What --strip-location did in one folder, said once: how many photos had a position removed. */
export function locationLine(photos: readonly Photo[]): string {
  const n = photos.filter((p) => p.locationStripped).length;
  if (n === 0) return "no photo has a GPS position: sent as they are";
  return `GPS position removed from ${n} photo${n === 1 ? "" : "s"} (copies; pixels and the rest of the metadata unchanged)`;
}
