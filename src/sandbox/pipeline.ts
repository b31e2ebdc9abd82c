// Every request goes through here, in this order:
//   route (404, 405) -> bearer token (401) -> queued fault for this organization -> subscription (402, /api/v1 only)
//   -> slow-apply hold, if that is the fault -> handler -> --state file written if anything changed
//   -> --latency delay (/api/v1 only) -> answer, unless the client has gone.
// Handlers never touch the socket: answering in one place is what lets faults, latency and persistence be exact.
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { addressRoutes } from "./api/address-routes.js";
import { checkoutRoutes } from "./api/checkout-routes.js";
import { reportRoutes } from "./api/report-routes.js";
import { shipmentRoutes } from "./api/shipment-routes.js";
import { controlRoutes } from "./control/routes.js";
import { matchRoute, type RequestContext, type Route } from "./request-context.js";
import { gatewayPage, takeFault } from "./faults.js";
import { ClientGone, discardBody, HttpError, json, writeReply, type Reply } from "./http.js";
import type { ShipmentShape } from "./defaults.js";
import type { Org } from "./model.js";
import type { StateWriter } from "./persist.js";
import type { ReceivedLog, ReceivedRequest } from "./received.js";
import { HeldRequests, holdRequest, SlowApplies } from "./slow-apply.js";
import type { SandboxState } from "./state.js";
import { orgNow, recordStamp, type BaseClock } from "./org-clock.js";

export const API_ROUTES: readonly Route[] = [...addressRoutes, ...shipmentRoutes, ...checkoutRoutes, ...reportRoutes];

const REAL_TIME = { mode: "real", offsetMs: 0 } as const;

export interface PipelineOptions {
  state: SandboxState;
  received: ReceivedLog;
  writer?: StateWriter;
  baseNow: BaseClock;
  latencyMs: number;
  /** The apply bound the sandbox declares (GET /_sandbox/tables) and holds slow-apply faults to. */
  applyMaxMs: number;
  /** How stored shipments name their addresses on a read. */
  shipmentShape: ShipmentShape;
  log?: (line: string) => void;
}

/** What one request has done so far. */
interface Progress {
  dirty: boolean;
  bytes: number;
  /** A reset-after fault: apply the request fully, then drop the connection without answering. */
  resetAfter: boolean;
  /** A 500-after fault: apply the request fully, then answer 500 as a handler failing after its commit would. */
  errorAfter: boolean;
  /** The handler changed the state (ctx.changed), as opposed to the pipeline using up a fault. */
  applied: boolean;
  /** A slow-apply or hold fault, as the log names it: the wait between reading the body and applying it. */
  slowApply?: string;
  /** Counts a slow-apply out of the requests close() waits for. */
  release?: () => void;
}

/** What the pipeline's own context holds: the request itself, where handlers may get a replay of it. */
type PipelineContext = Omit<RequestContext, "org" | "params" | "req"> & { req: IncomingMessage };

/**
 * A latency fault's wait, cut short when the client goes away: nobody is left to wait for the answer, so whoever
 * dropped the request (a test, a Ctrl-C) sees the sandbox settle it at once. What follows is unchanged: a request
 * with a body finds its client gone when it reads the body (nothing applied); one without a body is handled as usual.
 */
function waitWhileConnected(req: IncomingMessage, ms: number): Promise<void> {
  const socket = req.socket;
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    socket.once("close", done);
  });
}

export function createPipeline(options: PipelineOptions) {
  const { state, received, writer, baseNow, latencyMs, applyMaxMs, shipmentShape, log } = options;
  const slowApplies = new SlowApplies();
  const held = new HeldRequests();

  function bearer(req: IncomingMessage): Org | undefined {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
    return m ? state.orgByToken(m[1]!) : undefined;
  }

  async function route(routes: readonly Route[], ctx: PipelineContext, org: Org | undefined, progress: Progress, isApi: boolean): Promise<Reply | undefined> {
    const { req, path } = ctx;
    const method = req.method ?? "GET";
    const match = matchRoute(routes, method, path);
    if (!match) return json(404, { message: `The route ${path.slice(1)} could not be found.` });
    if ("allowed" in match) {
      const allowed = match.allowed.join(", ");
      return json(405, { message: `The ${method} method is not supported for route ${path.slice(1)}. Supported methods: ${allowed}.` }, { Allow: allowed });
    }
    if (!org) return json(401, { message: "Unauthenticated." });

    let slowApply: { what: string; wait: () => Promise<void>; label: string } | undefined;
    if (isApi) {
      const fault = takeFault(org, method, path);
      if (fault) {
        progress.dirty = true;
        if (ctx.entry) ctx.entry.fault = fault.kind;
        switch (fault.kind) {
          case "latency":
            await waitWhileConnected(req, fault.ms ?? 0);
            break;
          case "429":
            return json(429, { message: "Too Many Requests" }, { "Retry-After": String(fault.retryAfter ?? 1) });
          case "500":
            await discardBody(req, ctx.countBytes);
            return json(500, { message: "Server Error" });
          case "502":
          case "503":
          case "504": {
            await discardBody(req, ctx.countBytes);
            const status = Number(fault.kind) as 502 | 503 | 504;
            return { status, text: { contentType: "text/html; charset=utf-8", body: gatewayPage(status) } };
          }
          case "reset-before":
            // Nothing is applied and nothing is answered.
            return undefined;
          case "reset-after":
            progress.resetAfter = true;
            break;
          case "500-after":
            progress.errorAfter = true;
            break;
          case "slow-apply": {
            // A fault queued before a restart with a lower --apply-max still keeps the bound the sandbox declares.
            const ms = Math.min(fault.ms ?? 0, applyMaxMs);
            slowApply = { what: `waiting ${ms} ms to apply`, wait: () => sleep(ms), label: `slow-apply ${ms} ms` };
            break;
          }
          case "hold":
            slowApply = { what: "held until released (POST /_sandbox/holds/release)", wait: () => held.wait(org.id), label: "slow-apply held until released" };
            break;
        }
      }
      if (!org.subscription) {
        return json(402, { message: "Your organization has no active subscription. Renew it to use the API." });
      }
    }
    const handlerCtx: RequestContext = { ...ctx, org, params: match.params };
    if (slowApply !== undefined) {
      progress.slowApply = slowApply.label;
      progress.release = slowApplies.begin();
      const entry = ctx.entry;
      handlerCtx.req = await holdRequest(req, { ...slowApply, onBytes: ctx.countBytes, note: (text) => void (entry && (entry.note = text)) });
      // Counted as the body arrived; the handler reads the replay.
      handlerCtx.countBytes = () => undefined;
    }
    return match.route.handler(handlerCtx);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? "" : url.slice(q + 1);
    const isApi = !(path === "/_sandbox" || path.startsWith("/_sandbox/"));
    const org = bearer(req);
    const now = () => orgNow(baseNow, org?.clock ?? REAL_TIME);

    let entry: ReceivedRequest | undefined;
    if (isApi) {
      entry = received.start({ method, path, query: rawQuery, status: null, org: null, time: new Date(now()).toISOString(), body_bytes: 0 });
      if (org) received.assign(entry, org.id);
    }
    const progress: Progress = { dirty: false, bytes: 0, resetAfter: false, errorAfter: false, applied: false };
    const ctx: PipelineContext = {
      req,
      state,
      path,
      query: new URLSearchParams(rawQuery),
      // As a Laravel service builds its links: the scheme it was reached by and the Host header as sent. Behind a
      // TLS-terminating proxy that forwards `Host` without its port, links read http://host/... (api/pagination-link.ts).
      origin: `${"encrypted" in req.socket ? "https" : "http"}://${req.headers.host ?? "localhost"}`,
      now,
      stamp: () => recordStamp(now(), org?.createdAtLagMs ?? 0),
      changed: () => void (progress.dirty = progress.applied = true),
      countBytes: (n) => void (progress.bytes += n),
      entry,
      received,
      baseNow,
      applyMaxMs,
      shipmentShape,
      releaseHeld: () => (org ? held.release(org.id) : 0),
    };

    let reply: Reply | undefined;
    try {
      reply = await route(isApi ? API_ROUTES : controlRoutes, ctx, org, progress, isApi);
    } catch (err) {
      if (err instanceof HttpError) reply = err.reply;
      else if (err instanceof ClientGone) {
        finish(null, progress.slowApply === undefined ? "client gone" : "slow-apply: client gone before the whole body arrived; nothing applied");
        return;
      } else {
        log?.(`sandbox error on ${method} ${path}: ${(err as Error).stack ?? String(err)}`);
        reply = json(500, { message: "Server Error" });
      }
    }

    if (progress.dirty && writer) {
      try {
        // An acknowledged change must be on disk before the answer leaves.
        await writer.save();
      } catch (err) {
        log?.(`sandbox could not write its state file: ${(err as Error).message}`);
        reply = json(500, { message: `The sandbox could not save its state file: ${(err as Error).message}` });
      }
    }

    // Whatever the request did stays done (and saved above); only the answer is replaced.
    if (progress.errorAfter && reply !== undefined) reply = json(500, { message: "Server Error" });
    if (reply === undefined || progress.resetAfter) {
      req.socket.destroy();
      finish(null, reply === undefined ? "reset before applying" : "reset after applying");
      return;
    }
    if (isApi && latencyMs > 0) await sleep(latencyMs);
    // Only what reached the client is logged as answered: a status nobody received would read as acknowledged.
    if (res.destroyed || req.socket.destroyed) {
      finish(null, unsent(reply.status));
      return;
    }
    writeReply(res, reply, new Date(now()));
    finish(reply.status, progress.slowApply);

    function unsent(status: number): string {
      if (progress.slowApply === undefined) return `client gone; ${status} not sent`;
      return progress.applied ? `slow-apply: applied after the client had gone; ${status} not sent` : `slow-apply: client gone; ${status} not sent, nothing applied`;
    }

    function finish(status: number | null, note?: string): void {
      progress.release?.();
      if (entry) {
        entry.status = status;
        entry.body_bytes = progress.bytes > 0 ? progress.bytes : Number(req.headers["content-length"] ?? 0) || 0;
        if (note) entry.note = note;
        else delete entry.note;
      }
      if (log) {
        const ms = Math.round(performance.now() - started);
        const shown = rawQuery ? `${path}?${rawQuery}` : path;
        log(`${method} ${shown} ${status ?? "-"}${note ? ` (${note})` : ""} ${ms}ms`);
      }
    }
  }

  /** Resolves once no slow-apply is running: close() waits for this, so nothing changes after it resolves. */
  function idle(): Promise<void> {
    // A request still held is let through: a test that never released it must not hang the sandbox's close.
    held.release();
    return slowApplies.idle();
  }

  return { handle, idle };
}
