// A stand-in service for checkout's logic, answering on HTTP stubs under the real ApiClient: shipments with a status
// and a price, a script of what each POST /api/v1/checkout does, and a log of every call, so a test can assert what
// was priced, paid and charged.
import type { Clock } from "../../../src/clock.js";
import type { Connection } from "../../../src/deps.js";
import { createDeps, DEFAULT_GLOBALS, type Deps, type GlobalOptions } from "../../../src/deps.js";
import { SANDBOX_TABLES, ShipmentStatus } from "../../../src/contract/index.js";
import { httpStubs, reply, stubbedClient, type HttpStubs, type StubRequest } from "../../helpers/http-stubs.js";
import { tempDir } from "../../helpers/cli.js";
import { createTestIO, type TestIO } from "../../helpers/test-io.js";
import { scriptedPrompter } from "../../helpers/prompter.js";
import { inputRecordPath, inputScope } from "../../../src/ledger/entry-keys.js";
import { ledgerDir } from "../../../src/ledger/organization.js";

/** Where checkout's record is in the organization's ledger (what its runs sent, and what is in flight). */
export function checkoutRecordPath(env: NodeJS.ProcessEnv, baseUrl: string): string {
  return inputRecordPath(ledgerDir(env, { baseUrl }), inputScope("checkout", "checkout"));
}

/**
 * What one POST /api/v1/checkout does:
 * "ok" charges; "409" / "402" / "403" refuse; "lost-after" charges and then loses the answer (connection reset);
 * "lost-before" loses the request before it is applied; "500-before" answers 500 without charging.
 */
export type FinalizeStep = "ok" | "409" | "402" | "403" | "422" | "lost-after" | "lost-before" | "500-before";

export interface FakeService {
  /** The service's routes, as stubs under the real ApiClient (they may go unused; any other request fails the test). */
  http: HttpStubs;
  /** "GET /checkout 1,2", "POST /checkout 1,2", "GET /shipments/1", in order. */
  calls: string[];
  /** The ids of each successful charge. */
  charges: number[][];
  shipments: Map<number, { title: string; status: number; cents: number }>;
  /** Reads of these ids fail with a network error (to leave a reconciliation unsettled). */
  failingReads: Set<number>;
  /** Price of a shipment, in cents, changed before the next price session. */
  setPrice(id: number, cents: number): void;
  /** Told of each POST /api/v1/checkout before it is applied, and after. */
  beforePost?: (ids: number[]) => void;
  afterPost?: (ids: number[]) => void;
  /** Told of each GET /api/v1/shipments/{id} before it is answered. */
  beforeRead?: (id: number) => void;
}

/** Shipments 1..n are Drafts priced 1000 + id cents unless given otherwise. */
export function fakeService(
  ids: number[],
  steps: FinalizeStep[] = [],
  overrides: Record<number, { status?: number; cents?: number }> = {},
): FakeService {
  const shipments = new Map(
    ids.map((id) => [
      id,
      {
        title: `Artwork ${id}`,
        status: overrides[id]?.status ?? ShipmentStatus.Draft,
        cents: overrides[id]?.cents ?? 1000 + id,
      },
    ]),
  );
  const calls: string[] = [];
  const charges: number[][] = [];
  const failingReads = new Set<number>();
  const charge = (list: number[]) => {
    for (const id of list) shipments.get(id)!.status = ShipmentStatus.Confirmed;
    charges.push([...list]);
  };
  const http = httpStubs();
  const any = { times: "any" } as const;
  const idsOf = (request: StubRequest) => request.json<{ shipments: number[] }>().shipments;
  http
    .on(
      "GET /api/v1/shipments/{id}",
      (request) => {
        const id = Number(request.path.split("/").pop());
        calls.push(`GET /shipments/${id}`);
        service.beforeRead?.(id);
        if (failingReads.has(id)) return reply.lost();
        const s = shipments.get(id);
        if (!s) return reply.json(404, { message: `Shipment ${id} was not found` });
        return reply.json(200, { data: { id, title: s.title, status: s.status } });
      },
      any,
    )
    .on(
      "GET /api/v1/checkout",
      (request) => {
        const list = idsOf(request);
        calls.push(`GET /checkout ${list.join(",")}`);
        const prices: Record<string, number> = {};
        for (const id of list) prices[String(id)] = shipments.get(id)!.cents;
        return reply.json(200, { shipments: prices, total: Object.values(prices).reduce((a, b) => a + b, 0) });
      },
      any,
    )
    .on(
      "POST /api/v1/checkout",
      (request) => {
        const list = idsOf(request);
        calls.push(`POST /checkout ${list.join(",")}`);
        service.beforePost?.(list);
        const answer = finalize(list);
        service.afterPost?.(list);
        return answer;
      },
      any,
    );
  const finalize = (list: number[]) => {
        const step = steps.shift() ?? "ok";
        switch (step) {
          case "ok":
            charge(list);
            return reply.empty();
          case "409":
            return reply.json(409, { status: 1, message: "try later" });
          case "402":
            return reply.json(402, { status: 51, message: "insufficient funds" });
          case "403":
            return reply.json(403, { message: "no payment method on file" });
          case "422":
            return reply.json(422, { message: "The shipment has no price", errors: { "shipments.0": ["The shipment has no price."] } });
          case "lost-after":
            charge(list);
            return reply.lost();
          case "lost-before":
            return reply.lost();
          case "500-before":
            return reply.json(500, { message: "Server Error" });
        }
  };
  const service: FakeService = {
    http,
    calls,
    charges,
    shipments,
    failingReads,
    setPrice: (id, cents) => void (shipments.get(id)!.cents = cents),
  };
  return service;
}

/** A clock whose sleep returns at once, moving the time on by as much, and records how long it was asked to wait. */
export function fakeClock(onSleep?: (ms: number) => void): Clock & { waits: number[]; advance(ms: number): void } {
  const waits: number[] = [];
  let now = Date.parse("2026-01-05T10:00:00Z");
  return {
    waits,
    now: () => new Date(now),
    advance: (ms) => void (now += ms),
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      now += ms;
      onSleep?.(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}

/** The sandbox's apply bound the harness's connection declares: a payment's settle time is 2 s + this after it is sent. */
export const APPLY_MAX_MS = 3000;

export interface Harness {
  deps: Deps;
  io: TestIO;
  asked: string[];
  clock: Clock & { waits: number[]; advance(ms: number): void };
  controller: AbortController;
  /** The config folder: the checkout ledger lives in it (pass it to a rerun's harness). */
  configDir: string;
  /** True once the command asked for the API client. */
  apiRequested(): boolean;
}

export function harness(
  service: FakeService,
  options: { tty?: boolean; answers?: boolean[]; globals?: Partial<GlobalOptions>; onSleep?: (ms: number, h: Harness) => void; configDir?: string } = {},
): Harness {
  const io = createTestIO({ tty: options.tty ?? false });
  const scripted = scriptedPrompter([...(options.answers ?? [])]);
  // Prompts go into the service's call log, so a test can see where the confirmation came among the requests.
  const prompter = {
    ...scripted,
    confirm: (message: string, o?: { default?: boolean }) => {
      service.calls.push(`PROMPT ${message}`);
      return scripted.confirm(message, o);
    },
  };
  const controller = new AbortController();
  let requested = false;
  const connection: Connection = {
    profile: "default",
    baseUrl: "http://127.0.0.1:1",
    token: "t",
    // Only the apply bound is read from them (the settle window of the checkout ledger).
    tables: async () => ({ ...SANDBOX_TABLES, applyMaxMs: APPLY_MAX_MS }),
    sources: { baseUrl: "env", token: "env", profile: "default" },
  };
  const h: Harness = {
    deps: undefined as unknown as Deps,
    io,
    asked: scripted.asked,
    clock: fakeClock((ms) => options.onSleep?.(ms, h)),
    controller,
    configDir: options.configDir ?? tempDir("shipctl-checkout-"),
    apiRequested: () => requested,
  };
  h.deps = createDeps(
    {
      io,
      prompter,
      clock: h.clock,
      // Colours off, so tests read plain text even when pretending to be a terminal.
      env: { NO_COLOR: "1", SHIPCTL_CONFIG_DIR: h.configDir },
      cwd: "/",
      signal: controller.signal,
      connect: async () => connection,
      makeApi: async () => {
        requested = true;
        // No retries: each request the logic makes is one the service sees, as the call log shows.
        return stubbedClient(service.http, h.clock, { retries: 0 });
      },
    },
    { ...DEFAULT_GLOBALS, ...options.globals },
  );
  return h;
}

/** Runs the logic as main() would see it: the exit code of what it returned or threw. */
export async function exitOf(promise: Promise<unknown>): Promise<{ code: number; error?: Error & { hint?: string } }> {
  try {
    const code = await promise;
    return { code: typeof code === "number" ? code : 0 };
  } catch (err) {
    const e = err as Error & { exitCode?: number; hint?: string };
    if (typeof e.exitCode !== "number") throw err;
    return { code: e.exitCode, error: e };
  }
}
