// The 12 checked photos as the service wants them: `box[]` x6 then `art[]` x6, each group front, back, top, bottom,
// left, right. File names say group and side with the extension of the detected type, so a PNG that was saved as
// ".jpg" is not announced as a JPEG.
import { REPORT } from "../contract/index.js";
import type { MultipartBody } from "../api/types.js";
import { buildMultipartBody, type FilePart } from "./multipart.js";
import { slotKey, uploadOrder } from "./names.js";
import { CONTENT_TYPES, EXTENSIONS, type Photo } from "./types.js";

export function reportParts(photos: readonly Photo[]): FilePart[] {
  const bySlot = new Map(photos.map((p) => [slotKey(p), p]));
  return uploadOrder().map((slot) => {
    const photo = bySlot.get(slotKey(slot));
    if (!photo) throw new Error(`no photo for ${slot.group} ${slot.side}: the folder must be checked before building the body`);
    return {
      name: `${slot.group}[]`,
      filename: `${slot.group}-${slot.side}.${EXTENSIONS[photo.type]}`,
      contentType: CONTENT_TYPES[photo.type],
      path: photo.path,
      bytes: photo.bytes,
    };
  });
}

/** `onProgress` hears the running total of bytes handed to the connection (see buildMultipartBody). */
export function reportBody(photos: readonly Photo[], boundary?: string, onProgress?: (bytes: number) => void): MultipartBody {
  if (photos.length !== REPORT.groups.length * REPORT.photosPerGroup) {
    throw new Error(`a report needs ${REPORT.groups.length * REPORT.photosPerGroup} photos, got ${photos.length}`);
  }
  return buildMultipartBody(reportParts(photos), boundary, onProgress);
}
