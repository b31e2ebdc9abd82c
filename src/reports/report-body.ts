// The 12 checked photos as the service wants them: `box[]` x6 then `art[]` x6, each group front, back, top, bottom,
// left, right. File names say group and side with the extension of the detected type, so a PNG that was saved as
// ".jpg" is not announced as a JPEG. undici's FormData encodes the body; fs.openAsBlob streams each photo from disk,
// so memory stays flat however many photos a batch sends, and fails the read of a photo changed since its check.
import { openAsBlob, statSync } from "node:fs";
import { Readable, Transform } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { FormData, Response } from "undici";
import type { MultipartBody } from "../api/client-types.js";
import { REPORT } from "../contract/index.js";
import { slotKey, uploadOrder } from "./side-names.js";
import { CONTENT_TYPES, EXTENSIONS, type Photo } from "./report-types.js";

export interface BodyHooks {
  /** Hears the running total of bytes handed to the connection (each encoding opened counts from 0: a retry starts again). */
  onProgress?: (bytes: number) => void;
  /**
   * Told just before the last chunk is handed to the connection, which pulls chunks as it writes them. The ledger
   * records the upload as sent whole here, before its last byte can leave (InputLedger.markSent). If it throws, the body
   * fails instead, cut short.
   */
  onLastChunk?: () => void;
}

export async function reportBody(photos: readonly Photo[], hooks: BodyHooks = {}): Promise<MultipartBody> {
  if (photos.length !== REPORT.groups.length * REPORT.photosPerGroup) {
    throw new Error(`a report needs ${REPORT.groups.length * REPORT.photosPerGroup} photos, got ${photos.length}`);
  }
  const bySlot = new Map(photos.map((p) => [slotKey(p), p]));
  const form = new FormData();
  // The same parts without their bytes: undici frames every encoding alike (its boundaries are all one length), so
  // the body's length is this framing's plus the photos' bytes.
  const framing = new FormData();
  for (const slot of uploadOrder()) {
    const photo = bySlot.get(slotKey(slot));
    if (!photo) throw new Error(`no photo for ${slot.group} ${slot.side}: the folder must be checked before building the body`);
    const name = `${slot.group}[]`;
    const filename = `${slot.group}-${slot.side}.${EXTENSIONS[photo.type]}`;
    const type = CONTENT_TYPES[photo.type];
    const blob = await openAsBlob(photo.path, { type });
    if (blob.size !== photo.bytes) throw changed(photo);
    form.append(name, blob, filename);
    framing.append(name, new Blob([], { type }), filename);
  }
  const length = (await new Response(framing).arrayBuffer()).byteLength + photos.reduce((n, p) => n + p.bytes, 0);
  return {
    length,
    open: () => {
      const encoded = new Response(form);
      const source = Readable.fromWeb(encoded.body as ReadableStream<Uint8Array>);
      return { contentType: encoded.headers.get("content-type")!, stream: counted(source, length, photos, hooks) };
    },
  };
}

/** Passes the encoding on, telling the hooks what it hands on; a photo that cannot be read is named. */
function counted(source: Readable, length: number, photos: readonly Photo[], hooks: BodyHooks): Readable {
  let handed = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        if (handed + chunk.length === length) hooks.onLastChunk?.();
      } catch (err) {
        callback(err as Error);
        return;
      }
      handed += chunk.length;
      hooks.onProgress?.(handed);
      callback(null, chunk);
    },
  });
  source.on("error", (err) => {
    const photo = photos.find((p) => statSync(p.path, { throwIfNoEntry: false })?.size !== p.bytes);
    counter.destroy(photo ? changed(photo) : new Error("a photo changed while it was being sent; run again", { cause: err }));
  });
  counter.on("close", () => source.destroy());
  return source.pipe(counter);
}

function changed(photo: Photo): Error {
  return new Error(`${photo.path} changed while it was being sent (${photo.bytes} bytes when checked); run again`);
}
