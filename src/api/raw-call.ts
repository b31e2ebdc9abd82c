// The CallSpec of a request `shipctl api` builds (client-types RawRequest): any 2xx is the result, as it came; any
// other status goes to the generic mapping (error-map.ts), so retries and exit codes are those of every command.
import type { CallSpec } from "./call.js";
import type { RawRequest } from "./client-types.js";
import type { WireResponse } from "./transport.js";

/** `answered` sees every answer, so the caller still has the body of the one a failure was made from. */
export function rawCall(request: RawRequest, answered: (response: WireResponse) => void): CallSpec<WireResponse> {
  return {
    method: request.method,
    path: request.url.pathname,
    url: request.url,
    json: request.json,
    headers: request.headers,
    idempotent: request.idempotent,
    interpret(response) {
      answered(response);
      return response.status >= 200 && response.status < 300 ? { done: response } : undefined;
    },
  };
}
