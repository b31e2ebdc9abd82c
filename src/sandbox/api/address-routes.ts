// POST /api/v1/addresses/verify, POST /api/v1/addresses, PATCH and GET /api/v1/addresses/{id}, GET /api/v1/addresses.
import { Address } from "../../contract/index.js";
import type { Route, RequestContext } from "../request-context.js";
import { empty, json, type Reply } from "../http.js";
import { paginate } from "../pagination.js";
import { checkCountry, validate } from "../request-validation.js";
import { rateLimitedBody, sandboxVerdict, verifyFailureBody } from "../address-verifier.js";
import { addressFields, addressView } from "../views.js";
import { body, idParam, ownAddress } from "./params.js";

async function readAddress(ctx: RequestContext) {
  return validate(Address, await body(ctx), "", (raw, errors) => checkCountry(raw, "", errors));
}

async function verify(ctx: RequestContext): Promise<Reply> {
  const address = await readAddress(ctx);
  if (ctx.org.verifyRateLimited > 0) {
    ctx.org.verifyRateLimited -= 1;
    ctx.changed();
    return json(400, rateLimitedBody(address));
  }
  const verdict = sandboxVerdict(address);
  return verdict.kind === "valid" ? empty(200) : json(400, verifyFailureBody(address, verdict));
}

async function create(ctx: RequestContext): Promise<Reply> {
  const address = await readAddress(ctx);
  const at = ctx.stamp();
  const record = ctx.state.addAddress(ctx.org, (id) => ({ id, orgId: ctx.org.id, ...addressFields(address), createdAt: at, updatedAt: at }));
  ctx.changed();
  return json(201, { id: record.id });
}

async function update(ctx: RequestContext): Promise<Reply> {
  const record = ownAddress(ctx, idParam(ctx));
  const address = await readAddress(ctx);
  Object.assign(record, addressFields(address), { updatedAt: ctx.stamp() });
  ctx.changed();
  return empty(204);
}

export const addressRoutes: Route[] = [
  { method: "POST", pattern: /^\/api\/v1\/addresses\/verify$/, handler: verify },
  { method: "POST", pattern: /^\/api\/v1\/addresses$/, handler: create },
  { method: "GET", pattern: /^\/api\/v1\/addresses$/, handler: (ctx) => json(200, paginate(ctx, ctx.org.addressIds, (id) => addressView(ctx.state.addresses.get(id)!))) },
  { method: "GET", pattern: /^\/api\/v1\/addresses\/(\d+)$/, handler: (ctx) => json(200, { data: addressView(ownAddress(ctx, idParam(ctx))) }) },
  { method: "PATCH", pattern: /^\/api\/v1\/addresses\/(\d+)$/, handler: update },
];
