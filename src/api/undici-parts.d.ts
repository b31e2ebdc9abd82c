// Types for the two undici internals the HTTP layer imports directly. Importing "undici" itself evaluates fetch,
// WebSocket, caches and more (~35 ms more start-up per command, measured); the Agent and the request API are all
// shipctl needs. undici has no "exports" map, so these paths resolve; the types are the public ones.
declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";
  /** Dispatcher.prototype.request: call it with the dispatcher as `this`. */
  function request<TOpaque = null>(
    this: Dispatcher,
    options: Dispatcher.RequestOptions<TOpaque>,
  ): Promise<Dispatcher.ResponseData<TOpaque>>;
  export default request;
}
