// The sandbox: a local implementation of the Shipment and Address Service contract, plus its control surface.
// startSandbox() is what `shipctl sandbox`, `shipctl demo` and the tests run. See docs/sandbox.md.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_APPLY_MAX_MS, DEFAULT_SHIPMENT_SHAPE, SHIPMENT_SHAPES, type ShipmentShape } from "./defaults.js";
import { createPipeline } from "./pipeline.js";
import { loadStateFile, StateFileError, StateWriter } from "./persist.js";
import { ReceivedLog } from "./received.js";
import { DEFAULT_TOKEN, SandboxState } from "./state.js";
import { orgNow, recordStamp, type BaseClock } from "./org-clock.js";
import { tickOrg } from "./control/tick.js";

export { StateFileError } from "./persist.js";

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Bearer token of organization 1. Default "sandbox-token". */
  token?: string;
  /** Keep the state in this JSON file: loaded at start when present, rewritten atomically after every change. */
  stateFile?: string;
  /** Delay every /api/v1 answer by this many milliseconds (the real service is far away). */
  latencyMs?: number;
  /** The longest apply time the sandbox declares (GET /_sandbox/tables `apply_max_ms`) and keeps. Default 3000. */
  applyMaxMs?: number;
  /** How stored shipments name their addresses on a read (defaults.ts, SHIPMENT_SHAPES). Default "inline". */
  shipmentShape?: ShipmentShape;
  /** The base clock; each organization's clock is this moved or frozen through the control surface. */
  clock?: () => Date;
  /** Move every organization's shipments one lifecycle step this often (`--tick`); never when absent. */
  tickMs?: number;
  /** Receives one line per request, and errors. */
  log?: (line: string) => void;
}

export type RunningSandbox = Awaited<ReturnType<typeof startSandbox>>;

export async function startSandbox(options: SandboxOptions = {}) {
  const token = options.token ?? DEFAULT_TOKEN;
  if (!/^\S+$/.test(token)) throw new Error("the sandbox token must be non-empty and contain no spaces");
  const host = options.host ?? "127.0.0.1";
  const latencyMs = options.latencyMs ?? 0;
  if (!Number.isInteger(latencyMs) || latencyMs < 0) throw new Error(`latency must be a whole number of milliseconds from 0 (got ${latencyMs})`);
  const applyMaxMs = options.applyMaxMs ?? DEFAULT_APPLY_MAX_MS;
  if (!Number.isInteger(applyMaxMs) || applyMaxMs < 0) throw new Error(`apply max must be a whole number of milliseconds from 0 (got ${applyMaxMs})`);
  const shipmentShape = options.shipmentShape ?? DEFAULT_SHIPMENT_SHAPE;
  if (!SHIPMENT_SHAPES.includes(shipmentShape)) throw new Error(`the shipment shape must be one of ${SHIPMENT_SHAPES.join(", ")} (got ${String(shipmentShape)})`);

  const loaded = options.stateFile ? loadStateFile(options.stateFile) : undefined;
  let state: SandboxState;
  try {
    state = loaded ? SandboxState.fromFile(loaded, token) : SandboxState.create(token);
  } catch (err) {
    throw new StateFileError(`could not load the sandbox state file ${options.stateFile}: ${(err as Error).message}`, { cause: err });
  }
  const writer = options.stateFile ? new StateWriter(options.stateFile, () => state.toFile()) : undefined;
  // Written at once: the file exists from the start, and a path that cannot be written fails now, not mid-rehearsal.
  await writer?.save().catch((err: Error) => {
    throw new StateFileError(`could not write the sandbox state file ${options.stateFile}: ${err.message}`, { cause: err });
  });

  const received = new ReceivedLog();
  const baseNow = options.clock ?? (() => new Date());
  const pipeline = createPipeline({ state, received, writer, baseNow, latencyMs, applyMaxMs, shipmentShape, log: options.log });
  const server = createServer((req, res) => void pipeline.handle(req, res));
  // Clients keep connections alive between a benchmark's requests; do not drop them sooner than undici expects.
  server.keepAliveTimeout = 10_000;

  server.listen(options.port ?? 0, host);
  // Rejects with the listen error (EADDRINUSE, EACCES...) if it comes first.
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const ticks =
    options.tickMs === undefined
      ? undefined
      : setInterval(() => {
          if (tickEveryOrg(state, baseNow, options.log) === 0) return;
          void writer?.save().catch((err: Error) => options.log?.(`could not write the state file: ${err.message}`));
        }, options.tickMs);

  let closing: Promise<void> | undefined;
  return {
    /** e.g. "http://127.0.0.1:54321", no trailing slash. */
    url: `http://${displayHost(host)}:${port}`,
    /** Organization 1's token. */
    token,
    /** The in-memory model, for in-process inspection. */
    state,
    /** Requests received (all organizations), optionally only those matching "METHOD /path" (no query). */
    received: (filter?: string) => received.all(filter),
    close() {
      closing ??= (async () => {
        clearInterval(ticks);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // A request still being slowly applied is finished (and saved) first, as a service's in-flight work would be.
        await pipeline.idle();
        await writer?.idle();
      })();
      return closing;
    },
  };
}

/**
 * `--tick`: the lifecycle moving by itself, as on the real service, so `watch` and `due` can be rehearsed without
 * anyone moving shipments. Each organization takes the step of POST /_sandbox/tick at its own clock; the caller writes
 * the --state file when anything moved (the count returned).
 */
function tickEveryOrg(state: SandboxState, baseNow: BaseClock, log: ((line: string) => void) | undefined): number {
  let moved = 0;
  for (const org of state.orgs.values()) {
    const now = orgNow(baseNow, org.clock);
    const step = tickOrg(state, org, now, recordStamp(now, org.createdAtLagMs));
    const moves = step.moved.map((m) => `${m.id} ${m.from_name} → ${m.to_name}`);
    if (moves.length > 0) log?.(`tick: organization ${org.id}: ${moves.join(", ")}`);
    moved += moves.length;
  }
  return moved;
}

/** The host to put in the URL: a wildcard address is reached locally through loopback. */
function displayHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}
