// The 12 checked photos as the service wants them: `box[]` x6 then `art[]` x6, each group front, back, top, bottom,
// left, right. File names say group and side with the extension of the detected type, so a PNG that was saved as
// ".jpg" is not announced as a JPEG.
import { REPORT } from "../contract/index.js";
import { buildMultipartBody, type BodyOptions, type FilePart, type PooledMultipartBody } from "./multipart-body.js";
import { slotKey, uploadOrder } from "./side-names.js";
import { CONTENT_TYPES, EXTENSIONS, type Photo } from "./report-types.js";

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

/** See BodyOptions for the progress callback and the buffer pool. */
export function reportBody(photos: readonly Photo[], options: BodyOptions = {}): PooledMultipartBody {
  if (photos.length !== REPORT.groups.length * REPORT.photosPerGroup) {
    throw new Error(`a report needs ${REPORT.groups.length * REPORT.photosPerGroup} photos, got ${photos.length}`);
  }
  return buildMultipartBody(reportParts(photos), options);
}
