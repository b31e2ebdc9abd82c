// `shipctl api GET PATH --paginate`: the first answer, then each `links.next` through the same checks and loop as
// `list --all` (api/pagination-link.ts, api/walk-pages.ts), printing each page's `data` items as NDJSON, one per line,
// or with --slurp one JSON array of them all at the end.
import { UnexpectedResponseError } from "../api/api-errors.js";
import type { ApiClient, CallOptions, RawRequest } from "../api/client-types.js";
import { followableLink } from "../api/pagination-link.js";
import { createRedactor } from "../api/redact.js";
import type { WireResponse } from "../api/transport.js";
import { followNextLinks, type LinkedPage } from "../api/walk-pages.js";
import type { Deps } from "../deps.js";
import { ndjsonLine, printJson } from "../output/json.js";
import { parsedJson, printAnswer, statusBlock } from "./print-answer.js";

interface RawPage extends LinkedPage {
  data: unknown[];
}

export interface PageRun {
  deps: Deps;
  api: ApiClient;
  first: RawRequest;
  baseUrl: URL;
  token: string;
  call: CallOptions;
  slurp: boolean;
  include: boolean;
}

export async function printPages(run: PageRun): Promise<void> {
  const { deps, api, slurp } = run;
  const redact = createRedactor(run.token);
  const items: unknown[] = [];
  const read = async (request: RawRequest): Promise<RawPage> => {
    const answer = await api.rawRequest(request, run.call);
    if (answer.failure) printAnswer(deps.io, answer, { include: run.include, compact: !slurp });
    if (run.include) deps.io.out(statusBlock(answer.response));
    return pageOf(answer.response, request, redact);
  };
  // Next pages must be pages of the list asked for, as `list --all` requires: the request the guard let through is
  // the only one repeated, so a link elsewhere (a guarded endpoint among them) is never followed with its headers.
  const prefix = run.baseUrl.pathname.replace(/\/+$/, "");
  const path = run.first.url.pathname;
  const endpoint = prefix !== "" && path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
  await followNextLinks(
    await read(run.first),
    (next) => read({ ...run.first, url: followableLink(next, run.baseUrl, redact, endpoint) }),
    (page) => {
      if (slurp) items.push(...page.data);
      else for (const item of page.data) deps.io.out(ndjsonLine(item));
      return true;
    },
  );
  if (slurp) printJson(deps.io, items);
}

function pageOf(response: WireResponse, request: RawRequest, redact: (text: string) => string): RawPage {
  const value = parsedJson(response.text)?.value as Partial<RawPage> | undefined;
  const next = value?.links?.next;
  if (value && Array.isArray(value.data) && (typeof next === "string" || next === null)) return value as RawPage;
  const path = redact(request.url.pathname);
  throw new UnexpectedResponseError(
    { method: request.method, path, status: response.status, mayHaveArrived: false },
    `--paginate reads pages of {"data": [...], "links": {"next": ...}}, and ${request.method} ${path} answered something else`,
    { hint: "Run it without --paginate to see the answer as it is." },
  );
}
