// The API client wired to a test server, with a clock that never waits and its --debug lines kept.
import { createApiClient } from "../../src/api/client.js";
import type { ApiClient, ApiClientOptions } from "../../src/api/client-types.js";
import { fakeClock, type FakeClock } from "./clock.js";

export const TOKEN = "tok_live_S3CR3T-abc123";

export interface TestClient {
  api: ApiClient;
  clock: FakeClock;
  debug: string[];
}

export function makeClient(url: string, options: Partial<ApiClientOptions> = {}): TestClient {
  const clock = (options.clock as FakeClock | undefined) ?? fakeClock();
  const debug: string[] = [];
  const api = createApiClient({
    baseUrl: url,
    token: TOKEN,
    userAgent: "shipctl/9.9.9-test",
    clock,
    debug: (line) => debug.push(line),
    // Half of each backoff bound: deterministic, and visible in the recorded sleeps.
    random: () => 0.5,
    ...options,
  });
  return { api, clock, debug };
}
