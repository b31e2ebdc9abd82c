// Placeholder until the HTTP layer lands (replaced by the api/ work).
import type { ApiClient, ApiClientOptions } from "./types.js";

export function createApiClient(_options: ApiClientOptions): ApiClient {
  throw new Error("the HTTP layer is not built yet");
}
