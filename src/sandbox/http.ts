// What a handler answers, and the few ways of reading a request body. Handlers return a Reply (or throw an
// HttpError); only the request pipeline writes to the socket, so latency, faults and persistence apply in one place.
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { Readable } from "node:stream";

/**
 * What a handler reads a request's body from: the request itself (an IncomingMessage is one), or, under a slow-apply
 * fault, a replay of a body that was read in full before the wait, so that no handler touches a socket that is gone.
 */
export type RequestStream = Readable & { readonly headers: IncomingHttpHeaders; readonly complete: boolean };

export interface Reply {
  status: number;
  /** JSON value to send; undefined means an empty body. */
  json?: unknown;
  /** A non-JSON body (the 502 fault's HTML page). */
  text?: { contentType: string; body: string };
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

export const empty = (status: number): Reply => ({ status });
export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, json: body, headers });

export function fail(status: number, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError({ status, json: { message }, headers });
}

/** Laravel-style 422: `message` is the first error, plus "(and N more errors)" as the framework words it. */
export function validationReply(errors: Record<string, string[]>): Reply {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  const suffix = more > 0 ? ` (and ${more} more error${more === 1 ? "" : "s"})` : "";
  return { status: 422, json: { message: `${all[0] ?? "The given data was invalid."}${suffix}`, errors } };
}

export function invalid(errors: Record<string, string[]>): HttpError {
  return new HttpError(validationReply(errors));
}

/** A 422 about one rule that is not a field's value (a status, a time window): still shaped like validation. */
export function ruleFailed(key: string, message: string): HttpError {
  return invalid({ [key]: [message] });
}

/** JSON bodies larger than this are refused with 413: ten shipments with inline addresses are about 6 KB. */
export const MAX_JSON_BYTES = 1_048_576;

function hasBody(req: RequestStream): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

export function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** Reads the whole body as bytes, refusing more than `max` (the rest is left for Node to discard). */
export function readBytes(req: RequestStream, max: number, onBytes: (n: number) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The client may have gone while the request waited (a latency fault): its 'close' has already been emitted.
    if (req.destroyed) return reject(new ClientGone());
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      onBytes(chunk.length);
      if (size > max) {
        cleanup();
        // Keep draining without buffering, so the 413 reaches a client that is still sending.
        req.resume();
        reject(fail(413, `The request body is larger than ${max} bytes.`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onClose = () => {
      cleanup();
      reject(new ClientGone());
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    req.on("error", onClose);
  });
}

/** Reads the body to its end without keeping it: a service, or the gateway before it, has the whole request before it fails. */
export function discardBody(req: RequestStream, onBytes: (n: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) return reject(new ClientGone());
    if (req.readableEnded) return resolve();
    req.on("data", (chunk: Buffer) => onBytes(chunk.length));
    req.once("end", () => resolve());
    req.once("close", () => reject(new ClientGone()));
    req.once("error", () => reject(new ClientGone()));
  });
}

/** The client went away before its request was read: there is nobody to answer. */
export class ClientGone extends Error {
  constructor() {
    super("client closed the connection");
  }
}

/**
 * Reads a JSON object body. No body at all reads as `{}` (so missing fields get their own 422 errors); a body with
 * another Content-Type is 415; bad JSON is 400 "Malformed JSON: ...".
 */
export async function readJsonObject(req: RequestStream, onBytes: (n: number) => void): Promise<Record<string, unknown>> {
  if (!hasBody(req)) return {};
  if (!isJsonType(req.headers["content-type"])) {
    const sent = req.headers["content-type"] ?? "none";
    req.resume();
    throw fail(415, `Unsupported Content-Type "${sent}": send the body as JSON with "Content-Type: application/json".`);
  }
  const bytes = await readBytes(req, MAX_JSON_BYTES, onBytes);
  if (bytes.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (err) {
    throw fail(400, `Malformed JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw fail(400, "Malformed JSON: the body must be a JSON object, like {\"shipments\": [...]}.");
  }
  return value as Record<string, unknown>;
}

/**
 * `date` is the organization's now: a real service stamps `Date` with its own clock, the same clock as the
 * timestamps in its bodies, and clients learn the service's time from it (RFC 9110 §6.6.1). Left to Node, `Date`
 * would be real time even when the organization's clock was moved.
 */
export function writeReply(res: ServerResponse, reply: Reply, date: Date): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string | number> = { ...reply.headers, Date: date.toUTCString() };
  let body: string | undefined;
  if (reply.text) {
    headers["Content-Type"] = reply.text.contentType;
    body = reply.text.body;
  } else if (reply.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(reply.json);
  }
  headers["Content-Length"] = body === undefined ? 0 : Buffer.byteLength(body);
  res.writeHead(reply.status, headers);
  res.end(body);
}
