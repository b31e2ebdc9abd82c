// `address add` after a lost answer: never sent again; after a pause the stored addresses are read back (the pages
// that can hold it) and matched by all fields and creation time, which decides "stored" (exit 0) or "not found yet"
// (exit 7: the service may still be storing it until its settle time, which the run names; a rerun settles it), or
// "unknown" when the read-back fails (exit 7).
import { describe, expect, it } from "vitest";
import { parseAdd, runAdd } from "../../../src/commands/address/add.js";
import type { WireResult } from "../../../src/api/transport.js";
import type { PageOf, StoredAddress } from "../../../src/contract/index.js";
import { ExitCode, InterruptedError, RejectedError, UnavailableError } from "../../../src/errors.js";
import { GALLERY, GALLERY_FLAGS } from "../../helpers/gallery.js";
import { testDeps } from "../../helpers/deps.js";
import { httpStubs, reply } from "../../helpers/http-stubs.js";

const NOW = new Date("2025-03-01T12:00:00Z");
const STORE = "POST /api/v1/addresses";
const FLAGS = { ...GALLERY_FLAGS, verify: false };

const reset = reply.lost;
const timedOut = (): WireResult => ({ ok: false, failure: { written: true, aborted: false, code: "UND_ERR_HEADERS_TIMEOUT", cause: new Error("headers timeout") } });

function stored(id: number, createdAt: string, fields: Partial<typeof GALLERY> = {}): StoredAddress {
  return { id, ...GALLERY, ...fields, line_2: null, created_at: createdAt, updated_at: createdAt };
}

function page(data: StoredAddress[], next: string | null = null): PageOf<StoredAddress> {
  return {
    data,
    links: { first: "http://127.0.0.1:9/api/v1/addresses?page=1", last: null, prev: null, next },
    meta: { current_page: 1, from: data.length > 0 ? 1 : null, path: "http://127.0.0.1:9/api/v1/addresses", per_page: 50, to: data.length || null },
  };
}

/**
 * Deps whose POST is answered `lost`, whose listing answers `pages` (`readBack` instead, when given, after the POST),
 * and whose clock logs each wait into `log`. No retries: each request is one the log shows.
 */
function lostStore(lost: () => WireResult, pages: Array<PageOf<StoredAddress>>, options: { json?: boolean; readBack?: WireResult } = {}) {
  const log: string[] = [];
  const http = httpStubs()
    .on(STORE, () => {
      log.push("POST");
      return lost();
    })
    // Pages by number, as the read-back asks for them. Before the POST, the look for the same address already
    // stored (stored-match.ts) finds none: these are stories of a store whose answer was lost.
    .on(
      "GET /api/v1/addresses",
      (request) => {
        if (!log.includes("POST")) return reply.json(200, page([]));
        const n = Number(request.query.get("page") ?? 1);
        log.push(`LIST ${n}`);
        return options.readBack ?? reply.json(200, pages[n - 1] ?? page([]));
      },
      { times: "any" },
    );
  const t = testDeps({ json: options.json, now: NOW, http, retries: 0 });
  t.deps.clock = {
    now: () => NOW,
    sleep: async (ms) => void log.push(`SLEEP ${ms}`),
  };
  return { ...t, log };
}

async function failure(promise: Promise<unknown>): Promise<Error & { exitCode: number; hint?: string }> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof Error)) throw new Error("expected the command to fail");
  return err as Error & { exitCode: number; hint?: string };
}

describe("address add: a lost answer is read back, never sent again", () => {
  it("stored after all: waits 2 s, finds it, prints the id as for a normal success, with a note on stderr", async () => {
    const t = lostStore(reset, [page([stored(57, "2025-03-01 12:00:01")])]);
    await runAdd(parseAdd([], FLAGS), t.deps);
    expect(t.log).toEqual(["POST", "SLEEP 2000", "LIST 1"]);
    expect(t.http.sent(STORE)).toHaveLength(1);
    expect(t.io.stdout()).toBe("57\n");
    expect(t.io.stderr()).toContain("The answer to POST /api/v1/addresses was lost (the connection was closed by the other side)");
    expect(t.io.stderr()).toContain("Not sending it again; reading the stored addresses back in 2 s");
    expect(t.io.stderr()).toContain("Found it among the stored addresses: the request did take effect, and was not sent again.\n");
    expect(t.io.stderr()).toMatch(/Stored address 57\.\n$/);
  });

  it("--json after a found read-back: the same {id, address} document as a normal success", async () => {
    const t = lostStore(reset, [page([stored(57, "2025-03-01 12:00:01")])], { json: true });
    await runAdd(parseAdd([], FLAGS), t.deps);
    expect(JSON.parse(t.io.stdout())).toEqual({ id: 57, address: GALLERY, already_stored: false });
  });

  it("reads the pages that can hold it, and skips addresses that differ in any field", async () => {
    const next = "http://127.0.0.1:9/api/v1/addresses?page=2&limit=50";
    const t = lostStore(reset, [
      page([stored(60, "2025-03-01 12:00:01", { post_code: "98102" }), stored(61, "2025-03-01 12:00:01", { name: "Gallery South" })], next),
      page([stored(62, "2025-03-01 12:00:02")]),
    ]);
    await runAdd(parseAdd([], FLAGS), t.deps);
    // Page 1 already reaches the request's time: every page from it is read (page 1 again, to see it did not move).
    expect(t.log).toEqual(["POST", "SLEEP 2000", "LIST 1", "LIST 1", "LIST 2"]);
    expect(t.io.stdout()).toBe("62\n");
  });

  it("not there yet: exit 7, says it may still be being stored until its settle time, and never calls a rerun safe before it", async () => {
    const t = lostStore(reset, [page([stored(60, "2025-03-01 12:00:01", { city: "Tacoma" })])]);
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    // Sent at 12:00:00: the loopback send bound (2 s) plus the default apply window (5 min).
    expect(err.message).toBe(
      "the address may still be being stored: the answer to its request was lost, and it was not among the stored addresses 2 s later, " +
        "but the service may still be storing it until 2025-03-01 12:05:04 UTC",
    );
    expect(err.hint).toBe(
      "Nothing was sent again. Run the same command again after 2025-03-01 12:05:04 UTC (sooner, it waits until then): " +
        "it reads the addresses back first and stores the address only if this request did not.",
    );
    expect(err.hint).not.toContain("safe");
    expect(t.http.sent(STORE)).toHaveLength(1);
    expect(t.io.stdout()).toBe("");
  });

  it("an identical address stored well before the request is not taken for it", async () => {
    const t = lostStore(reset, [page([stored(12, "2025-03-01 11:50:00")])]);
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err.message).toContain("the address may still be being stored");
    expect(t.io.stdout()).toBe("");
  });

  it("a 5xx is a lost answer too", async () => {
    const t = lostStore(
      () => reply.json(500, { message: "Server Error" }),
      [page([stored(57, "2025-03-01 12:00:01")])],
    );
    await runAdd(parseAdd([], FLAGS), t.deps);
    expect(t.io.stdout()).toBe("57\n");
    expect(t.http.sent(STORE)).toHaveLength(1);
  });

  it("a timed-out request not found yet: exit 7, but not called safe: the service may still be storing it", async () => {
    const t = lostStore(timedOut, [page([])]);
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(err.message).toContain("the service may still be storing it");
    expect(err.hint).toContain("Run the same command again after 2025-03-01 12:05:04 UTC");
    expect(err.hint).not.toContain("safe");
  });

  it("the read-back fails: exit 7, unknown, says how to check; not sent again", async () => {
    // The look for it before the POST answers; the read-back after it fails.
    const t = lostStore(reset, [], { readBack: reply.json(502, { message: "Bad Gateway" }) });
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(err.message).toBe(
      "the answer to storing the address was lost, and reading the addresses back failed (The service failed: Bad Gateway (GET /api/v1/addresses answered 502)): whether it was stored is unknown",
    );
    expect(err.hint).toContain("shipctl list addresses");
    // The request stays in flight in the ledger: the rerun settles it before it sends anything.
    expect(err.hint).toContain("it reads the addresses back first and stores the address only if this request did not");
    expect(t.http.sent(STORE)).toHaveLength(1);
  });

  it("a refusal (422) is not a lost answer: reported as it is, nothing read back", async () => {
    const t = lostStore(
      () => reply.json(422, { message: "The line_1 field is invalid", errors: { line_1: ["invalid"] } }),
      [],
    );
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err).toBeInstanceOf(RejectedError);
    expect(t.log).toEqual(["POST"]);
  });

  it("a request that never left (connection refused) is not read back either", async () => {
    const t = lostStore(reply.refused, []);
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err.message).toBe("Could not reach the service at http://127.0.0.1:9: connection refused (POST /api/v1/addresses was not sent)");
    expect(t.log).toEqual(["POST"]);
  });

  it("Ctrl-C while the request was in flight stays an interruption (the command says to check), nothing read", async () => {
    const t = lostStore(reply.interrupted, []);
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err).toBeInstanceOf(InterruptedError);
    expect(t.log).toEqual(["POST"]);
  });

  it("Ctrl-C during the pause: exit 130, says it may have been stored and how to check", async () => {
    const controller = new AbortController();
    const t = lostStore(reset, []);
    t.deps.signal = controller.signal;
    t.deps.clock = {
      now: () => NOW,
      sleep: async () => {
        controller.abort(new Error("SIGINT"));
        throw controller.signal.reason;
      },
    };
    const err = await failure(runAdd(parseAdd([], FLAGS), t.deps));
    expect(err).toBeInstanceOf(InterruptedError);
    expect(err.message).toBe("interrupted while checking whether the address was stored: it may have been");
    expect(err.hint).toContain("shipctl list addresses");
    // Nothing read back after the POST.
    expect(t.log).toEqual(["POST"]);
  });
});
