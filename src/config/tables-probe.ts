// Asks a service whether it is a shipctl sandbox, which publishes its Country and Service tables at
// GET /_sandbox/tables as {sandbox: true, countries: [...], services: [...]}. Any other answer (404, HTML, a network
// error, a timeout) simply means "not a sandbox". Sent through the API layer's transport and caller, with short
// timeouts and no retry: this is a side question asked before the real work, and must neither retry nor hang.
import * as z from "zod";
import type { CallSpec } from "../api/call.js";
import { openCaller } from "../api/client.js";
import { CertificateError } from "../api/api-errors.js";
import type { NetworkOptions } from "../api/network.js";
import { USER_AGENT } from "../api/user-agent.js";
import { systemClock } from "../clock.js";
import { AuthError, messageOf } from "../errors.js";
import { isRecord } from "../contract/json.js";
import { CountryEntrySchema, ServiceEntrySchema, type StoredCountry, type StoredService } from "./schema.js";

export const SANDBOX_TABLES_PATH = "/_sandbox/tables";

export type ProbeResult =
  | { sandbox: true; countries: StoredCountry[]; services: StoredService[]; applyMaxMs?: number }
  | {
      sandbox: false;
      reason: string;
      warning?: string;
      /**
       * The service itself answered, and not as a sandbox (a 404, a page, JSON without sandbox: true): that holds
       * until the base URL changes, so it is worth remembering. Not so for a network failure, a timeout, 408, 429 or
       * 5xx, which say nothing lasting, nor for a sandbox whose tables shipctl cannot read.
       */
      definite?: true;
    };

export interface ProbeOptions {
  token?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  debug?: (line: string) => void;
  /** Proxy variables and the profile's CA file, as for every request of the run. */
  network?: NetworkOptions;
}

const SandboxTablesBody = z.looseObject({
  sandbox: z.literal(true),
  countries: z.array(CountryEntrySchema),
  services: z.array(ServiceEntrySchema),
  apply_max_ms: z.number().int().positive().optional(),
});

export async function probeSandboxTables(baseUrl: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const debug = options.debug;
  const { call, close } = openCaller({
    baseUrl,
    token: options.token ?? "",
    userAgent: USER_AGENT,
    clock: systemClock,
    retries: 0,
    connectTimeoutMs: timeoutMs,
    responseTimeoutMs: timeoutMs,
    network: options.network,
    debug: debug && ((line) => debug(`${line} (sandbox tables probe)`)),
    // A bound on the whole question too, beyond the connect and answer timeouts.
    signal: AbortSignal.any([AbortSignal.timeout(timeoutMs * 2), ...(options.signal ? [options.signal] : [])]),
  });
  try {
    return await call(askTables(baseUrl));
  } catch (e) {
    // Ctrl-C must still stop the command, not be mistaken for "not a sandbox".
    if (options.signal?.aborted) throw options.signal.reason;
    // A refused token or a missing subscription is refused on every path, sandbox or not: say that, rather than
    // "no table", so the user fixes the login instead of importing tables. So is a refused TLS certificate.
    if (e instanceof AuthError || e instanceof CertificateError) throw e;
    return { sandbox: false, reason: messageOf(e) };
  } finally {
    await close().catch(() => undefined);
  }
}

/** The answers that say the service has no /_sandbox/tables at all: 404 Not Found, 405 Method Not Allowed, 410 Gone. */
const NO_SUCH_PATH: readonly number[] = [404, 405, 410];

/** GET /_sandbox/tables: any answer but 401 and 402 (the API layer's errors) says whether this is a sandbox. */
function askTables(baseUrl: string): CallSpec<ProbeResult> {
  return {
    method: "GET",
    path: SANDBOX_TABLES_PATH,
    idempotent: true,
    interpret(response) {
      if (response.status === 401 || response.status === 402) return undefined;
      if (response.status !== 200) {
        // Only "no such path here" lasts. A redirect (a login page in front), a 403 or a 5xx may be gone next time.
        const lasting = NO_SUCH_PATH.includes(response.status);
        return { done: { sandbox: false, reason: `answered ${response.status}`, ...(lasting ? { definite: true as const } : {}) } };
      }
      return { done: readTables(baseUrl, response.text) };
    },
  };
}

function readTables(baseUrl: string, text: string): ProbeResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { sandbox: false, reason: "answered something that is not JSON", definite: true };
  }
  if (!isRecord(json) || json.sandbox !== true) return { sandbox: false, reason: "did not say it is a sandbox", definite: true };
  const parsed = SandboxTablesBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const warning = `the sandbox at ${baseUrl} sent tables shipctl cannot read (${issue.path.join(".")}: ${issue.message}); country and service names will need a table of your own`;
    return { sandbox: false, reason: "sent unreadable tables", warning };
  }
  const { countries, services, apply_max_ms: applyMaxMs } = parsed.data;
  return { sandbox: true, countries, services, ...(applyMaxMs !== undefined ? { applyMaxMs } : {}) };
}
