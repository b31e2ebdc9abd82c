// The run of `shipctl api METHOD PATH`: builds the request from the command line (path, fields, --input, headers),
// refuses the writes that must not repeat (guarded-writes.ts) before anything is sent, then sends it through the one
// API client every command uses (retries, redaction, --debug, exit codes) and prints the answer.
import { resolve } from "node:path";
import type { RawRequest } from "../api/client-types.js";
import type { HttpMethod } from "../api/transport.js";
import { callOptions, type Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { readJsonInput } from "../input/json-file.js";
import { readStdinText, readTextFile } from "../fs/input-guard.js";
import { appendQuery, fieldsObject, queryPairs, type FieldArg } from "./api-fields.js";
import { resolveApiTarget } from "./api-target.js";
import { methodOverridden, refuseGuardedWrite } from "./guarded-writes.js";
import { printAnswer } from "./print-answer.js";

export interface ApiRequestOptions {
  method: HttpMethod;
  /** As given: a path under the base URL, or a URL on its origin. */
  path: string;
  fields: FieldArg[];
  /** Names in lower case (api-headers.ts). */
  headers: Record<string, string>;
  /** --input: a JSON file, or "-" for stdin. */
  input?: string;
  paginate: boolean;
  slurp: boolean;
  include: boolean;
}

export async function runApiRequest(options: ApiRequestOptions, deps: Deps): Promise<void> {
  const api = await deps.api();
  const connection = await deps.connection();
  const baseUrl = new URL(connection.baseUrl);
  const request = await buildRequest(options, deps, baseUrl);
  refuseGuardedWrite(request, baseUrl);
  const call = callOptions(deps, `${request.method} ${request.url.pathname}`);
  if (options.paginate) {
    const { printPages } = await import("./api-pages.js");
    await printPages({ deps, api, first: request, baseUrl, token: connection.token, call, slurp: options.slurp, include: options.include });
    return;
  }
  printAnswer(deps.io, await api.rawRequest(request, call), { include: options.include });
}

async function buildRequest(options: ApiRequestOptions, deps: Deps, baseUrl: URL): Promise<RawRequest> {
  const url = resolveApiTarget(options.path, baseUrl);
  const fields = await fieldsObject(options.fields, (path) => fileText(deps, path));
  let json: unknown;
  // As gh: with --input the fields go to the query string, as they do for a GET.
  if (options.input !== undefined) {
    json = (await readJsonInput(deps, options.input, "--input")).value;
  }
  if (options.input !== undefined || options.method === "GET") appendQuery(url, queryPairs(fields));
  else if (options.fields.length > 0) json = fields;
  const request: RawRequest = { method: options.method, url, headers: options.headers, json, idempotent: false };
  // Only a plain GET is sent again after it may have arrived; any other is sent as the commands send a POST.
  request.idempotent = request.method === "GET" && !methodOverridden(request);
  return request;
}

/** The text of `-F key=@FILE` (`@-`: stdin). */
async function fileText(deps: Deps, path: string): Promise<string> {
  if (path === "-") {
    return await readStdinText(deps.io.stdin, { firstLine: false, signal: deps.signal });
  }
  try {
    return await readTextFile(resolve(deps.cwd, path), path, "a text file", { flag: "-F key=@FILE" });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${path} for a -F field: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
}

