// The condition-report request body (multipart/form-data), streamed from disk with its exact length computed up
// front, so it goes out with a Content-Length and never sits whole in memory.
// Measured against a loop posting prebuilt in-memory bodies (bench/report.mjs): undici FormData over fs.openAsBlob
// reached 0.33x of it, a generator of 256 KiB file-stream chunks wrapped in Readable.from 0.69x. In a short-lived
// process what costs is the work per chunk (stream layers, thread-pool round trips, garbage), not the bytes; and
// the CPU a client spends is taken from the service it shares a machine with. So each photo (at most 1 MiB) is read
// with one synchronous read into a buffer that already holds its part header, and pushed as one chunk: a read from
// the page cache blocks the loop for a fraction of a millisecond (a few ms from a cold disk, against the 100 ms or
// more the network needs to send that megabyte), and saves the thread pool's wake-ups: about 80 ms of CPU less per
// 20-report batch than asynchronous reads.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { Readable } from "node:stream";
import type { MultipartBody } from "../api/client-types.js";
import type { ChunkPool } from "./chunk-pool.js";

export interface FilePart {
  /** Form field name, e.g. "box[]". */
  name: string;
  /** File name given to the service. */
  filename: string;
  contentType: string;
  path: string;
  /** Size checked before building; the stream fails rather than send a different number of bytes. */
  bytes: number;
}

/**
 * Largest read from disk, and so the largest chunk handed to the connection. It equals the contract's photo limit
 * (1 MiB), so every photo that may be sent goes in one read; a larger file (only in tests) takes several.
 */
export const READ_CHUNK_BYTES = 1024 * 1024;

const CRLF = "\r\n";

export function newBoundary(): string {
  // 24 random hex digits: the chance that a photo contains the delimiter line is negligible.
  return `----shipctl-${randomBytes(12).toString("hex")}`;
}

/** Quotes a header parameter value (RFC 7578: escape `"` and `\`, no line breaks). */
function quoted(value: string): string {
  return `"${value.replace(/[\r\n]/g, " ").replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

export interface BodyOptions {
  boundary?: string;
  /**
   * Hears the running total of bytes handed to the connection, chunk by chunk (each stream opened counts from 0: a
   * retry starts again). Counting here spares the HTTP layer a counting stage of its own.
   */
  onProgress?: (bytes: number) => void;
  /** Where to take read buffers from (a batch); without one, each chunk is a new buffer. */
  pool?: ChunkPool;
  /**
   * Told just before a stream hands its last chunk to its consumer: the connection, which pulls chunks as it writes
   * them (the body is passed to the HTTP layer as it is). The ledger records the upload as sent whole here, before
   * its last byte can leave (Book.markSent). If it throws, the stream fails instead, and the body is cut short.
   */
  onLastChunk?: () => void;
}

/** A body whose read buffers go back to the pool once its request has settled. */
export interface PooledMultipartBody extends MultipartBody {
  /**
   * Call once the request that sent this body has settled (answered and read, or failed): its streams are closed and
   * their buffers returned to the pool. Before that, the connection may still be sending from them.
   */
  release(): void;
}

export function buildMultipartBody(parts: readonly FilePart[], options: BodyOptions = {}): PooledMultipartBody {
  const boundary = options.boundary ?? newBoundary();
  const headers = parts.map((p, i) =>
    Buffer.from(
      `${i === 0 ? "" : CRLF}--${boundary}${CRLF}` +
        `Content-Disposition: form-data; name=${quoted(p.name)}; filename=${quoted(p.filename)}${CRLF}` +
        `Content-Type: ${p.contentType}${CRLF}${CRLF}`,
      "latin1",
    ),
  );
  const closing = Buffer.from(`${parts.length > 0 ? CRLF : ""}--${boundary}--${CRLF}`, "latin1");
  const length = headers.reduce((n, h) => n + h.length, 0) + parts.reduce((n, p) => n + p.bytes, 0) + closing.length;
  const opened: MultipartStream[] = [];
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: () => {
      const stream = new MultipartStream(parts, headers, closing, options);
      opened.push(stream);
      return stream;
    },
    release: () => {
      for (const stream of opened.splice(0)) stream.release();
    },
  };
}

/**
 * Yields, for each part, its header followed by the file's first READ_CHUNK_BYTES in one buffer, then any further
 * chunks of the file, and finally the closing delimiter. It reads only when the consumer (the connection) asks for
 * more, so memory stays flat however large the batch.
 */
class MultipartStream extends Readable {
  private index = 0;
  /** Bytes of the current part's file already read. */
  private offset = 0;
  /** Open only while a file larger than one chunk is being read. */
  private fd: number | undefined;
  private pushed = 0;
  /** Pool buffers this stream has filled: all may still be referenced by the connection until release(). */
  private readonly lent: Buffer[] = [];

  constructor(
    private readonly parts: readonly FilePart[],
    private readonly headers: readonly Buffer[],
    private readonly closing: Buffer,
    private readonly options: Pick<BodyOptions, "onProgress" | "pool" | "onLastChunk">,
  ) {
    // No read-ahead: a synchronous read is ready the moment the connection asks, so a chunk buffered in advance
    // would only be one more megabyte per upload held in memory (measured: about 9 MB less peak RSS per batch).
    super({ highWaterMark: 0 });
  }

  override _read(): void {
    let chunk: Buffer | null;
    try {
      chunk = this.nextChunk();
      // The closing delimiter was just taken: nothing follows it.
      if (chunk && this.index > this.parts.length) this.options.onLastChunk?.();
    } catch (err) {
      this.destroy(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (chunk) {
      this.pushed += chunk.length;
      this.options.onProgress?.(this.pushed);
    }
    this.push(chunk);
  }

  /** The request is over: stop reading and hand the buffers back (see PooledMultipartBody.release). */
  release(): void {
    this.destroy();
    this.options.pool?.giveBack(this.lent.splice(0));
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.closeFile();
    callback(err);
  }

  private nextChunk(): Buffer | null {
    if (this.index > this.parts.length) return null;
    if (this.index === this.parts.length) {
      this.index++;
      return this.closing;
    }
    const part = this.parts[this.index]!;
    const header = this.offset === 0 ? this.headers[this.index]! : undefined;
    const want = Math.min(READ_CHUNK_BYTES, part.bytes - this.offset);
    const size = (header?.length ?? 0) + want;
    const slab = this.options.pool?.take(size);
    if (slab) this.lent.push(slab);
    const chunk = slab ? slab.subarray(0, size) : Buffer.allocUnsafe(size);
    header?.copy(chunk, 0);
    if (want > 0) {
      this.fd ??= openSync(part.path, "r");
      const got = readFully(this.fd, chunk, header?.length ?? 0, want, this.offset);
      if (got < want) {
        throw new Error(`${part.path} changed while it was being sent (${part.bytes} bytes expected, ${this.offset + got} read); run again`);
      }
      this.offset += want;
    }
    if (this.offset === part.bytes) {
      // Reading stops at the checked size: a file that grew since the check cannot push the body past its length.
      this.closeFile();
      this.index++;
      this.offset = 0;
    }
    return chunk;
  }

  private closeFile(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads `length` bytes at `position` into `buffer` at `offset`, unless the file ends first; returns bytes read. */
function readFully(fd: number, buffer: Buffer, offset: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const bytesRead = readSync(fd, buffer, offset + done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}
