// `address add` stores an address at most once: its ledger (one per address, in the config folder) tells a rerun
// what an earlier run stored, and a request whose answer never came is settled before anything is sent again.
import { describe, expect, it } from "vitest";
import { parseAdd, runAdd } from "../../../src/commands/address/add.js";
import type { PageOf, StoredAddress } from "../../../src/contract/index.js";
import { ExitCode, InterruptedError } from "../../../src/errors.js";
import { GALLERY, GALLERY_FLAGS } from "../../helpers/gallery.js";
import { testDeps } from "../../helpers/deps.js";
import { httpStubs, reply, type HttpStubs } from "../../helpers/http-stubs.js";
import { tempDir } from "../../helpers/cli.js";

const NOW = Date.parse("2025-03-01T12:00:00Z");
const FLAGS = { ...GALLERY_FLAGS, verify: false };

function stored(id: number, createdAt = "2025-03-01 12:00:01"): StoredAddress {
  return { id, ...GALLERY, line_2: null, created_at: createdAt, updated_at: createdAt };
}

function page(data: StoredAddress[]): PageOf<StoredAddress> {
  return {
    data,
    links: { first: "http://127.0.0.1:9/api/v1/addresses?page=1", last: null, prev: null, next: null },
    meta: { current_page: 1, from: data.length > 0 ? 1 : null, path: "http://127.0.0.1:9/api/v1/addresses", per_page: 50, to: data.length || null },
  };
}

const LIST = "GET /api/v1/addresses";
const CREATE = "POST /api/v1/addresses";
const created = (id: number) => httpStubs().on(CREATE, reply.json(201, { id }));
const read = (id: number, address: StoredAddress) => [`GET /api/v1/addresses/${id}`, reply.json(200, { data: address })] as const;

/** A run of `address add` in `configDir` answered by `http`, its clock moving on by each wait (from 12:00:00). */
function runIn(configDir: string, http: HttpStubs, options: { json?: boolean } = {}) {
  // Before storing, the stored addresses are looked through for the same address (stored-match.ts): none unless the
  // test's own stubs (which answer first) say otherwise.
  http.on(LIST, reply.json(200, page([])), { times: "any" });
  const t = testDeps({ configDir, json: options.json, http });
  let now = NOW;
  const waits: number[] = [];
  t.deps.clock = {
    now: () => new Date(now),
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
  return { ...t, waits };
}

async function failure(promise: Promise<unknown>): Promise<Error & { exitCode: number; hint?: string }> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof Error)) throw new Error("expected the command to fail");
  return err as Error & { exitCode: number; hint?: string };
}

const interruptedOnTheWay = () => httpStubs().on(CREATE, reply.interrupted());

describe("address add twice: one address", () => {
  it("the second run prints the id the first stored (read back once to be sure), and stores nothing", async () => {
    const dir = tempDir("shipctl-add-");
    const first = runIn(dir, created(41));
    await runAdd(parseAdd([], FLAGS), first.deps);
    expect(first.io.stdout()).toBe("41\n");

    const again = runIn(dir, httpStubs().on(...read(41, stored(41))), { json: true });
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.http.requests.map((r) => r.route)).toEqual(["GET /api/v1/addresses/41"]);
    expect(JSON.parse(again.io.stdout())).toEqual({ id: 41, address: GALLERY, already_stored: true });
    expect(again.io.stderr()).toContain("This address was stored by an earlier run: address 41. Not stored again (--force-new stores it once more).\n");
    expect(again.io.stderr()).not.toContain("Stored address");
  });

  it("--force-new stores it once more; a plain rerun then names the latest", async () => {
    const dir = tempDir("shipctl-add-");
    await runAdd(parseAdd([], FLAGS), runIn(dir, created(41)).deps);
    const forced = runIn(dir, created(42));
    await runAdd(parseAdd([], { ...FLAGS, forceNew: true }), forced.deps);
    expect(forced.io.stdout()).toBe("42\n");
    const again = runIn(dir, httpStubs().on(...read(42, stored(42))));
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.io.stdout()).toBe("42\n");
    expect(again.http.requests.map((r) => r.route)).toEqual(["GET /api/v1/addresses/42"]);
  });

  it("an id this token cannot read (another organization, a restarted sandbox) is not trusted: stored now, saying so", async () => {
    const dir = tempDir("shipctl-add-");
    await runAdd(parseAdd([], FLAGS), runIn(dir, created(41)).deps);
    const again = runIn(dir, created(3).on("GET /api/v1/addresses/41", reply.json(404, { message: "not found" })));
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.io.stderr()).toContain("The ledger records this address as stored as address 41, but this token cannot read that address: storing it.");
    expect(again.io.stdout()).toBe("3\n");
  });

  it("an id that now holds another address (a sandbox restarted on the same port) is not trusted: stored now, saying so", async () => {
    const dir = tempDir("shipctl-add-");
    await runAdd(parseAdd([], FLAGS), runIn(dir, created(41)).deps);
    const again = runIn(dir, created(2).on(...read(41, { ...stored(41), name: "Someone Else" })));
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.io.stderr()).toContain('The ledger records this address as stored as address 41, but address 41 is now "Someone Else" <ship@gallery.example>: storing it.');
    expect(again.io.stdout()).toBe("2\n");
  });

  it("a recommended revision stored earlier is still this address: its id, as stored", async () => {
    const dir = tempDir("shipctl-add-");
    await runAdd(parseAdd([], FLAGS), runIn(dir, created(41)).deps);
    const revised = { ...stored(41), line_1: "1 Main St" };
    const again = runIn(dir, httpStubs().on(...read(41, revised)), { json: true });
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(JSON.parse(again.io.stdout())).toEqual({ id: 41, address: { ...GALLERY, line_1: "1 Main St" }, already_stored: true });
  });

  it("the address as given decides: another address is stored", async () => {
    const dir = tempDir("shipctl-add-");
    await runAdd(parseAdd([], FLAGS), runIn(dir, created(41)).deps);
    const other = runIn(dir, created(42));
    await runAdd(parseAdd([], { ...FLAGS, city: "Tacoma" }), other.deps);
    expect(other.io.stdout()).toBe("42\n");
  });
});

describe("address add: a request an earlier run left in flight is settled before anything is sent", () => {
  it("found stored: its id, nothing sent", async () => {
    const dir = tempDir("shipctl-add-");
    const first = runIn(dir, interruptedOnTheWay());
    expect((await failure(runAdd(parseAdd([], FLAGS), first.deps))).exitCode).toBe(ExitCode.Interrupted);

    const again = runIn(dir, httpStubs().on(LIST, reply.json(200, page([stored(57)])), { times: "any" }).on(...read(57, stored(57))));
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.http.sent(CREATE)).toEqual([]);
    expect(again.io.stdout()).toBe("57\n");
    expect(again.io.stderr()).toContain("An earlier run sent this address to be stored and its answer never came; reading the stored addresses back");
    expect(again.io.stderr()).toContain("An earlier run's request to store this address lost its answer, but it was stored: address 57. Not stored again.");
    expect(again.waits).toEqual([]);
  });

  it("not found, with --no-wait: exit 7 at once, naming the time after which a rerun settles it; nothing sent", async () => {
    const dir = tempDir("shipctl-add-");
    await failure(runAdd(parseAdd([], FLAGS), runIn(dir, interruptedOnTheWay()).deps));
    const again = runIn(dir, httpStubs());
    const err = await failure(runAdd(parseAdd([], { ...FLAGS, wait: false }), again.deps));
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(err.message).toBe(
      "an earlier run's request to store this address may still be being applied by the service (until 2025-03-01 12:05:04 UTC): nothing was sent",
    );
    expect(err.hint).toContain("Run the same command again after 2025-03-01 12:05:04 UTC");
    expect(again.http.sent(CREATE)).toEqual([]);
    expect(again.waits).toEqual([]);
  });

  it("not found: the rerun waits, reading back now and then, until its settle time; then stores it once", async () => {
    const dir = tempDir("shipctl-add-");
    await failure(runAdd(parseAdd([], FLAGS), runIn(dir, interruptedOnTheWay()).deps));
    const again = runIn(dir, created(58));
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.io.stderr()).toContain("1 address was sent by an earlier run whose answer never came, and the service does not show it yet; it may still be applying it until 12:05:04 UTC");
    expect(again.waits.length).toBeGreaterThan(1);
    expect(again.http.sent(CREATE)).toHaveLength(1);
    expect(again.io.stdout()).toBe("58\n");
  });
});

describe("address add --force-new: never beside a request of the same address still in flight", () => {
  it("an earlier run's request in flight is settled first: with --no-wait, exit 7 and nothing sent", async () => {
    const dir = tempDir("shipctl-add-");
    await failure(runAdd(parseAdd([], FLAGS), runIn(dir, interruptedOnTheWay()).deps));
    const forced = runIn(dir, httpStubs());
    const err = await failure(runAdd(parseAdd([], { ...FLAGS, forceNew: true, wait: false }), forced.deps));
    expect(err.exitCode).toBe(ExitCode.Unavailable);
    expect(err.message).toContain("an earlier run's request to store this address may still be being applied by the service");
    expect(forced.http.sent(CREATE)).toEqual([]);
  });

  it("settled as stored, it is not taken for this run's address: --force-new still stores it once more", async () => {
    const dir = tempDir("shipctl-add-");
    await failure(runAdd(parseAdd([], FLAGS), runIn(dir, interruptedOnTheWay()).deps));
    const forced = runIn(dir, created(60).on(LIST, reply.json(200, page([stored(57)])), { times: "any" }));
    await runAdd(parseAdd([], { ...FLAGS, forceNew: true }), forced.deps);
    expect(forced.io.stderr()).toContain("An earlier run sent this address to be stored and its answer never came");
    expect(forced.http.sent(CREATE)).toHaveLength(1);
    expect(forced.io.stdout()).toBe("60\n");
  });
});

describe("address add: stopping while the request is on its way", () => {
  it("the request is let finish and its answer recorded: the id is printed, exit 130; the rerun stores nothing", async () => {
    const dir = tempDir("shipctl-add-");
    const controller = new AbortController();
    const first = runIn(
      dir,
      httpStubs().on(CREATE, () => {
        controller.abort(new InterruptedError("interrupted"));
        return reply.json(201, { id: 41 });
      }),
    );
    first.deps.signal = controller.signal;
    const err = await failure(runAdd(parseAdd([], FLAGS), first.deps));
    expect(err.exitCode).toBe(ExitCode.Interrupted);
    expect(err.message).toBe("interrupted; the address was stored (address 41) before the run stopped");
    expect(first.io.stdout()).toBe("41\n");

    const again = runIn(dir, httpStubs().on(...read(41, stored(41))));
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.http.sent(CREATE)).toEqual([]);
    expect(again.io.stdout()).toBe("41\n");
  });

  it("stopped before it was sent: nothing sent, nothing recorded in flight", async () => {
    const dir = tempDir("shipctl-add-");
    const controller = new AbortController();
    // Ctrl-C while the stored addresses are looked through, before the store request.
    const stop = () => {
      controller.abort(new InterruptedError("interrupted"));
      return reply.json(200, page([]));
    };
    const first = runIn(dir, httpStubs().on(LIST, stop));
    first.deps.signal = controller.signal;
    const err = await failure(runAdd(parseAdd([], FLAGS), first.deps));
    expect(err.message).toBe("interrupted before the address was sent: nothing was stored");
    const again = runIn(dir, created(41));
    await runAdd(parseAdd([], FLAGS), again.deps);
    expect(again.http.requests.map((r) => r.route)).toEqual([LIST, CREATE]);
  });
});
