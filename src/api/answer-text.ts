// An answer's body read to text, bounded: what the transport (transport.ts) hands to the caller.
import type { Dispatcher } from "undici";

/** Answers bigger than this are cut off: no endpoint of the contract returns more than a page of 50 items. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The answer's bytes as text, at most MAX_ANSWER_BYTES (the rest is cut off). Read with stream events rather than an
 * async iterator: a batch reads 1,000 small answers, and the iterator's machinery cost more than the reading.
 */
export function readText(body: Dispatcher.ResponseData["body"]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = () => {
      settled = true;
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    body.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        done();
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.on("end", () => {
      if (!settled) done();
    });
    body.on("error", (err) => {
      if (settled) return;
      settled = true;
      reject(err);
    });
    body.on("close", () => {
      if (settled) return;
      settled = true;
      reject(Object.assign(new Error("the answer ended before it was complete"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
    });
  });
}
