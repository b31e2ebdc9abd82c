// Paginated reads exactly as api.md shows them: `data`, `links` {first, last: null, prev, next}, and `meta`
// {current_page, from, path, per_page, to}. Links are absolute, built from the Host the client used, and keep `limit`
// when it was passed. `from`/`to` are 1-based positions; an empty page has them null ([assume], as the framework).
import { PageQuery } from "../contract/index.js";
import type { RequestContext } from "./request-context.js";
import { listedIds } from "./list-order.js";
import { addError, validate, type Errors } from "./request-validation.js";

/** The schema coerces text to numbers; say plainly when the text is not a whole number at all ("abc", "1.5", ""). */
function wholeNumbers(raw: Record<string, unknown>, errors: Errors): void {
  for (const key of ["page", "limit"]) {
    const v = raw[key];
    if (typeof v === "string" && !/^\s*-?\d+\s*$/.test(v)) addError(errors, key, `The ${key} field must be a whole number (got "${v}").`);
  }
}

/** A page of the organization's `ids` (its shipments' or addresses'), in its list order. */
export function paginate<T>(ctx: RequestContext, ids: number[], view: (id: number) => T) {
  // Only page and limit mean anything here; other query parameters are ignored, as the service's framework does.
  const raw = Object.fromEntries(
    ["page", "limit"].filter((key) => ctx.query.has(key)).map((key) => [key, ctx.query.get(key)]),
  );
  const { page: current, limit } = validate(PageQuery, raw, "", wholeNumbers);

  const base = `${ctx.origin}${ctx.path}`;
  const url = (n: number) => `${base}?page=${n}${ctx.query.has("limit") ? `&limit=${limit}` : ""}`;
  const listed = listedIds(ctx.org, ids);
  const start = (current - 1) * limit;
  const data = start < listed.length ? listed.slice(start, start + limit).map(view) : [];
  const hasMore = start + limit < listed.length;
  return {
    data,
    links: {
      first: url(1),
      last: null,
      prev: current > 1 ? url(current - 1) : null,
      next: hasMore ? url(current + 1) : null,
    },
    meta: {
      current_page: current,
      from: data.length > 0 ? start + 1 : null,
      path: base,
      per_page: limit,
      to: data.length > 0 ? start + data.length : null,
    },
  };
}
