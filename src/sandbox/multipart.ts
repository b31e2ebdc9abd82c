// Reads a condition report's multipart body as it streams in (busboy): each photo is hashed and measured on the
// fly and never kept in memory. Limits apply while streaming: the first photo over the size limit stops parsing at
// once (the rest of the body is discarded unread), and the number of parts is capped.
import busboy from "busboy";
import { createHash } from "node:crypto";
import { REPORT, type PhotoGroup } from "../contract/index.js";
import { ClientGone, fail, type RequestStream } from "./http.js";
import type { ReportPhoto } from "./model.js";
import { addError, type Errors } from "./request-validation.js";

const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the bytes are, by their magic number (the file name and declared type are not trusted). */
export function detectImage(head: Buffer): "jpeg" | "png" | undefined {
  // A head shorter than the magic number stays shorter, and so unequal.
  if (head.subarray(0, JPEG.length).equals(JPEG)) return "jpeg";
  if (head.subarray(0, PNG.length).equals(PNG)) return "png";
  return undefined;
}

/** Twelve photos are expected; anything far beyond is not a condition report. */
export const REPORT_LIMITS = { files: 24, fields: 12, parts: 36 } as const;

const GROUP_OF_PART: Record<string, PhotoGroup> = { "box[]": "box", "art[]": "art" };

export interface ParseHooks {
  /** Each part's name as it arrives (for the received-requests log). */
  onPart(name: string): void;
  onBytes(n: number): void;
}

export function isMultipart(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]!.trim().toLowerCase() === "multipart/form-data";
}

export function parseReport(req: RequestStream, hooks: ParseHooks): Promise<{ photos: ReportPhoto[]; errors: Errors }> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) return reject(new ClientGone());
    const photos: ReportPhoto[] = [];
    const errors: Errors = {};
    const counts: Record<PhotoGroup, number> = { box: 0, art: 0 };
    let settled = false;

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy reports "limit" when a file reaches fileSize bytes, so allow one more byte than the largest photo
        // accepted: a photo of exactly photoMaxBytes passes, one byte more is refused.
        limits: { fileSize: REPORT.photoMaxBytes + 1, ...REPORT_LIMITS, fieldSize: 1024, headerPairs: 20 },
      });
    } catch (err) {
      req.resume();
      reject(fail(400, `Malformed multipart request: ${(err as Error).message} (send multipart/form-data with a boundary).`));
      return;
    }

    const onData = (chunk: Buffer) => hooks.onBytes(chunk.length);
    const onClose = () => {
      if (!req.complete) finish(() => reject(new ClientGone()));
    };
    req.on("data", onData);
    req.on("close", onClose);

    function finish(settle: () => void): void {
      if (settled) return;
      settled = true;
      req.off("close", onClose);
      settle();
    }

    /** Stops parsing now and discards the rest of the body without reading it into memory. */
    function stop(key: string, message: string): void {
      addError(errors, key, message);
      req.unpipe(parser);
      parser.removeAllListeners();
      parser.on("error", () => undefined);
      req.resume();
      finish(() => resolve({ photos, errors }));
    }

    parser.on("file", (name, stream, info) => {
      hooks.onPart(name);
      const group = GROUP_OF_PART[name];
      if (!group) {
        addError(errors, name, `The ${name} part is not allowed: send the photos as box[] and art[] parts.`);
        stream.resume();
        return;
      }
      const key = `${group}.${counts[group]++}`;
      const hash = createHash("sha256");
      let size = 0;
      let head = Buffer.alloc(0);
      stream.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
        if (head.length < PNG.length) head = Buffer.concat([head, chunk.subarray(0, PNG.length - head.length)]);
      });
      stream.on("limit", () => {
        stop(key, `The ${key} photo is larger than ${REPORT.photoMaxBytes.toLocaleString("en-US")} bytes (1 MB): shrink it and send the set again.`);
      });
      stream.on("end", () => {
        if (settled) return;
        const detected = detectImage(head);
        if (!detected) {
          const what = size === 0 ? "it is empty" : "its content is neither";
          addError(errors, key, `The ${key} photo must be a JPG or PNG image (${what}; file name "${info.filename ?? ""}").`);
          return;
        }
        photos.push({
          part: name,
          filename: info.filename ?? null,
          content_type: info.mimeType ?? null,
          detected,
          size,
          sha256: hash.digest("hex"),
        });
      });
    });

    parser.on("field", (name) => {
      hooks.onPart(name);
      const group = GROUP_OF_PART[name];
      if (group) {
        const key = `${group}.${counts[group]++}`;
        addError(errors, key, `The ${key} photo must be a file upload (the part has no filename, so it was read as text).`);
      } else {
        addError(errors, name, `The ${name} field is not allowed: a condition report holds only box[] and art[] files.`);
      }
    });

    const tooMany = () =>
      stop("parts", `Too many form parts (at most ${REPORT_LIMITS.parts}): a condition report is exactly ${REPORT.photosPerGroup} box[] and ${REPORT.photosPerGroup} art[] files.`);
    parser.on("partsLimit", tooMany);
    parser.on("filesLimit", tooMany);
    parser.on("fieldsLimit", tooMany);

    parser.on("error", (err: Error) => {
      req.unpipe(parser);
      req.resume();
      finish(() => reject(fail(400, `Malformed multipart body: ${err.message}.`)));
    });

    parser.on("close", () => {
      finish(() => {
        for (const group of REPORT.groups) {
          if (counts[group] !== REPORT.photosPerGroup) {
            addError(errors, group, `The ${group} field must have exactly ${REPORT.photosPerGroup} photos, sent as ${group}[] parts (got ${counts[group]}).`);
          }
        }
        resolve({ photos, errors });
      });
    });

    req.pipe(parser);
  });
}
