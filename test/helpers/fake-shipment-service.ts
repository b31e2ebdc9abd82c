// An in-memory stand-in for the service behind the ApiClient interface, with scripted failures per create request:
// enough to test the batch's exactly-once logic without sockets. Failures use the HTTP layer's real error classes.
import { NetworkError, NotFoundError, ServerError, ValidationError } from "../../src/api/api-errors.js";
import type { ApiClient, VerifyOutcome } from "../../src/api/client-types.js";
import type { Address, PageOf, Shipment, StoredShipment } from "../../src/contract/index.js";
import type { Deps } from "../../src/deps.js";
import type { Clock } from "../../src/clock.js";
import { tempDir } from "./cli.js";
import { instantClock } from "./clock.js";
import { testDeps } from "./deps.js";
import type { TestIO } from "./test-io.js";

/** What the next create request meets. */
export type CreateScript =
  | "ok"
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

const facts = (status: number | undefined, mayHaveArrived: boolean) => ({ method: "POST", path: "/api/v1/shipments", status, mayHaveArrived });

function stamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace("T", " ");
}

export class FakeShipmentService {
  readonly shipments: Array<StoredShipment & { sent: Shipment }> = [];
  readonly createCalls: Shipment[][] = [];
  readonly verified: Address[] = [];
  script: CreateScript[] = [];
  private nextId = 1;

  constructor(private readonly clock: Clock) {}

  api(): ApiClient {
    const notUsed = async (): Promise<never> => {
      throw new Error("not used by this test");
    };
    const page = (n: number): PageOf<StoredShipment> => {
      const data = this.shipments.slice((n - 1) * 50, n * 50).map(({ sent: _sent, ...s }) => s);
      const more = n * 50 < this.shipments.length;
      return {
        data,
        links: { first: "p1", last: null, prev: n > 1 ? `p${n - 1}` : null, next: more ? `p${n + 1}` : null },
        meta: { current_page: n, from: data.length ? (n - 1) * 50 + 1 : null, path: "/api/v1/shipments", per_page: 50, to: data.length ? (n - 1) * 50 + data.length : null },
      };
    };
    return {
      verifyAddress: async (address): Promise<VerifyOutcome> => {
        this.verified.push(address);
        if (/po box/i.test(address.line_1)) {
          return { valid: false, result: { ...address, line_2: address.line_2 ?? null, recommended: false, status: 2, message: "Carriers refuse a PO box." } };
        }
        if (/ St$/.test(address.line_1)) {
          return { valid: false, result: { ...address, line_2: address.line_2 ?? null, line_1: address.line_1.replace(/ St$/, " Street"), recommended: true, status: 3, message: "Revision recommended." } };
        }
        return { valid: true };
      },
      createShipments: async (list) => {
        this.createCalls.push(list);
        const step = this.script.shift() ?? "ok";
        const apply = () => {
          const created = list.map((s) => {
            const id = this.nextId++;
            this.shipments.push({ id, title: s.title, status: 1, value: s.value, length: s.length, height: s.height, depth: s.depth, service: s.service, created_at: stamp(this.clock.now()), sent: s });
            return { id, title: s.title };
          });
          return { shipments: created };
        };
        if (step === "ok") return apply();
        if (step === "lost-after-apply") {
          apply();
          throw new NetworkError(facts(undefined, true), "the connection was reset after the request was sent", { code: "ECONNRESET" });
        }
        if (step === "killed-after-apply") {
          apply();
          throw new Error("killed");
        }
        if (step === "lost-before-apply") throw new NetworkError(facts(undefined, true), "the connection was reset", { code: "ECONNRESET" });
        if (step === "500") throw new ServerError(facts(500, true), "the service failed (500)");
        const errors = Object.fromEntries(step.reject.map((i) => [`shipments.${i}.value`, ["The value is not accepted."]]));
        throw new ValidationError(facts(422, false), "The given data was invalid.", errors);
      },
      listShipments: async () => page(1),
      nextPage: (async (_kind: string, url: string) => page(Number(url.slice(1)))) as ApiClient["nextPage"],
      getShipment: async (id) => {
        const found = this.shipments.find((s) => s.id === id);
        if (!found) throw new NotFoundError({ method: "GET", path: `/api/v1/shipments/${id}`, status: 404, mayHaveArrived: false }, `shipment ${id} not found`, `shipment ${id}`);
        const { sent: _sent, ...stored } = found;
        return stored;
      },
      createAddress: notUsed,
      updateAddress: notUsed,
      rawRequest: notUsed,
      getAddress: notUsed,
      listAddresses: notUsed,
      updateShipment: notUsed,
      priceShipments: notUsed,
      finalizeCheckout: notUsed,
      uploadReport: notUsed,
      close: async () => undefined,
    };
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

/** Deps for a run against a fake service (a new one unless given), with a config folder and a cwd of its own. */
export function shipmentHarness(
  options: { json?: boolean; service?: FakeShipmentService; dir?: string; prompts?: boolean[]; tty?: boolean; token?: string } = {},
): ShipmentHarness {
  const service = options.service ?? new FakeShipmentService(instantClock);
  const controller = new AbortController();
  const dir = options.dir ?? tempDir("shipctl-batch-");
  const { deps, io } = testDeps({
    client: service.api(),
    clock: instantClock,
    env: { SHIPCTL_CONFIG_DIR: dir },
    cwd: dir,
    signal: controller.signal,
    json: options.json,
    answers: options.prompts,
    tty: options.tty,
    token: options.token ?? "t",
  });
  return { deps, io, service, controller, dir };
}
