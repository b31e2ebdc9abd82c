// An answer's body read to text, bounded: what the transport (transport.ts) hands to the caller.
import type { Dispatcher } from "undici";

/** Answers bigger than this are cut off: no endpoint of the contract returns more than a page of 50 items. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The answer's bytes as text, at most MAX_ANSWER_BYTES (the rest is cut off). Read with an async iterator: a stage of
 * stream events written by hand measured no faster (1,000 small answers: 9-10 ms either way).
 */
export async function readText(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Leaving the loop destroys the body: the rest is not read.
      if (size > MAX_ANSWER_BYTES) break;
      chunks.push(chunk);
    }
  } catch (err) {
    if ((err as { code?: unknown }).code !== "ERR_STREAM_PREMATURE_CLOSE") throw err;
    throw Object.assign(new Error("the answer ended before it was complete"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
  }
  return Buffer.concat(chunks).toString("utf8");
}
