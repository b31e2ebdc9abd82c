// An in-memory stand-in for the service's shipment endpoints, answering on HTTP stubs (http-stubs.ts) under the real
// ApiClient, with scripted failures per create request: enough to test the batch's exactly-once logic without
// sockets. Its routes may go unused (a test uses some); a request to any other still fails the test.
import type { Address, Shipment, StoredShipment } from "../../src/contract/index.js";
import type { Deps } from "../../src/deps.js";
import type { Clock } from "../../src/clock.js";
import { tempDir } from "./cli.js";
import { instantClock } from "./clock.js";
import { testDeps } from "./deps.js";
import { httpStubs, page, reply, type HttpStubs, type StubRequest } from "./http-stubs.js";
import type { TestIO } from "./test-io.js";

/** What the next create request meets. */
export type CreateScript =
  | "ok"
  /** Applied, answered with the created shipments in the reverse of the request's order (the contract names none). */
  | "ok-reversed"
  /** Applied, then the connection dropped: the answer is lost. */
  | "lost-after-apply"
  /** The connection dropped before the service read the request: nothing applied, but the client cannot know. */
  | "lost-before-apply"
  /** A 500 that did not apply anything. */
  | "500"
  /** 422 naming these indexes of the request. */
  | { reject: number[] }
  /** Applied, then the process "dies" (an error that is not an API answer). */
  | "killed-after-apply";

function stamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace("T", " ");
}

const LIST = "/api/v1/shipments";

export class FakeShipmentService {
  readonly shipments: Array<StoredShipment & { sent: Shipment }> = [];
  readonly createCalls: Shipment[][] = [];
  readonly verified: Address[] = [];
  script: CreateScript[] = [];
  private nextId = 1;

  constructor(private readonly clock: Clock) {}

  /** Registers the service's routes on `http`. */
  serve(http: HttpStubs): HttpStubs {
    const any = { times: "any" } as const;
    return http
      .on("POST /api/v1/addresses/verify", (r) => this.verify(r.json<Address>()), any)
      .on(`POST ${LIST}`, (r) => this.create(r.json<{ shipments: Shipment[] }>().shipments), any)
      .on(`GET ${LIST}`, (r) => reply.json(200, this.page(Number(r.query.get("page") ?? "1"))), any)
      .on(`GET ${LIST}/{id}`, (r) => this.get(r), any);
  }

  private verify(address: Address) {
    this.verified.push(address);
    const failure = { ...address, line_2: address.line_2 ?? null };
    if (/po box/i.test(address.line_1)) return reply.json(400, { ...failure, recommended: false, status: 2, message: "Carriers refuse a PO box." });
    if (/ St$/.test(address.line_1)) {
      return reply.json(400, { ...failure, line_1: address.line_1.replace(/ St$/, " Street"), recommended: true, status: 3, message: "Revision recommended." });
    }
    return reply.json(200, {});
  }

  private create(list: Shipment[]) {
    this.createCalls.push(list);
    const step = this.script.shift() ?? "ok";
    const apply = () => {
      const created = list.map((s) => {
        const id = this.nextId++;
        this.shipments.push({ id, title: s.title, status: 1, value: s.value, length: s.length, height: s.height, depth: s.depth, service: s.service, created_at: stamp(this.clock.now()), sent: s });
        return { id, title: s.title };
      });
      return reply.json(201, { shipments: step === "ok-reversed" ? created.reverse() : created });
    };
    if (step === "ok" || step === "ok-reversed") return apply();
    if (step === "lost-after-apply") {
      apply();
      return reply.lost();
    }
    if (step === "killed-after-apply") {
      apply();
      throw new Error("killed");
    }
    if (step === "lost-before-apply") return reply.lost();
    if (step === "500") return reply.json(500, { message: "the service failed" });
    const errors = Object.fromEntries(step.reject.map((i) => [`shipments.${i}.value`, ["The value is not accepted."]]));
    return reply.json(422, { message: "The given data was invalid.", errors });
  }

  private page(n: number) {
    const data = this.shipments.slice((n - 1) * 50, n * 50).map(({ sent: _sent, ...s }) => s);
    const more = n * 50 < this.shipments.length;
    return page(data, { page: n, path: `http://127.0.0.1:9${LIST}`, next: more ? `http://127.0.0.1:9${LIST}?page=${n + 1}` : undefined });
  }

  private get(request: StubRequest) {
    const id = Number(request.path.split("/").pop());
    const found = this.shipments.find((s) => s.id === id);
    if (!found) return reply.json(404, { message: `shipment ${id} not found` });
    const { sent: _sent, ...stored } = found;
    return reply.json(200, { data: stored });
  }

  /** How many shipments hold each title: exactly-once means 1 for every row. */
  countsByTitle(): Map<string, number> {
    const m = new Map<string, number>();
    for (const s of this.shipments) m.set(s.title, (m.get(s.title) ?? 0) + 1);
    return m;
  }
}

export interface ShipmentHarness {
  deps: Deps;
  io: TestIO;
  service: FakeShipmentService;
  controller: AbortController;
  dir: string;
}

/** Deps for a run against a stand-in service (a new one unless given), with a config folder and a cwd of its own. */
export function shipmentHarness(
  options: { json?: boolean; service?: FakeShipmentService; http?: HttpStubs; dir?: string; prompts?: boolean[]; tty?: boolean; token?: string } = {},
): ShipmentHarness {
  const service = options.service ?? new FakeShipmentService(instantClock);
  const controller = new AbortController();
  const dir = options.dir ?? tempDir("shipctl-batch-");
  const { deps, io } = testDeps({
    // Stubs the test registered first answer first: the service takes the requests they leave.
    http: service.serve(options.http ?? httpStubs()),
    clock: instantClock,
    env: { SHIPCTL_CONFIG_DIR: dir },
    cwd: dir,
    signal: controller.signal,
    json: options.json,
    answers: options.prompts,
    tty: options.tty,
    token: options.token ?? "stub-token",
  });
  return { deps, io, service, controller, dir };
}
