// Asks a service whether it is a shipctl sandbox, which publishes its Country and Service tables at
// GET /_sandbox/tables as {sandbox: true, countries: [...], services: [...]}. Any other answer (404, HTML, a network
// error, a timeout) simply means "not a sandbox". Uses undici directly with short timeouts: this is a side question
// asked before the real work, and must neither retry nor hang.
import { Agent } from "undici";
import * as z from "zod";
import { USER_AGENT } from "../api/user-agent.js";
import { AuthError } from "../errors.js";
import { CountryEntrySchema, ServiceEntrySchema, type StoredCountry, type StoredService } from "./schema.js";

export const SANDBOX_TABLES_PATH = "/_sandbox/tables";

export type ProbeResult =
  | { sandbox: true; countries: StoredCountry[]; services: StoredService[]; applyMaxMs?: number }
  | { sandbox: false; reason: string; warning?: string };

export interface ProbeOptions {
  token?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  debug?: (line: string) => void;
}

const SandboxTablesBody = z.looseObject({
  sandbox: z.literal(true),
  countries: z.array(CountryEntrySchema),
  services: z.array(ServiceEntrySchema),
  apply_max_ms: z.number().int().positive().optional(),
});

export async function probeSandboxTables(baseUrl: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const url = `${baseUrl}${SANDBOX_TABLES_PATH}`;
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const signals = [AbortSignal.timeout(timeoutMs * 2), ...(options.signal ? [options.signal] : [])];
  const started = Date.now();
  try {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const target = new URL(url);
    const res = await agent.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: "GET",
      headers,
      signal: AbortSignal.any(signals),
    });
    const text = await res.body.text();
    options.debug?.(`GET ${url} -> ${res.statusCode} (${Date.now() - started} ms, sandbox tables probe)`);
    // A refused token or a missing subscription is refused on every path, sandbox or not: say that, rather than
    // "no table", so the user fixes the login instead of importing tables.
    if (res.statusCode === 401 || res.statusCode === 402) throw await authFailure(res.statusCode, res.headers, text, options.token);
    if (res.statusCode !== 200) return { sandbox: false, reason: `answered ${res.statusCode}` };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { sandbox: false, reason: "answered something that is not JSON" };
    }
    if (!isRecord(json) || json.sandbox !== true) return { sandbox: false, reason: "did not say it is a sandbox" };
    const parsed = SandboxTablesBody.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const warning = `the sandbox at ${baseUrl} sent tables shipctl cannot read (${issue.path.join(".")}: ${issue.message}); country and service names will need a table of your own`;
      return { sandbox: false, reason: "sent unreadable tables", warning };
    }
    const { countries, services, apply_max_ms: applyMaxMs } = parsed.data;
    return { sandbox: true, countries, services, ...(applyMaxMs !== undefined ? { applyMaxMs } : {}) };
  } catch (e) {
    // Ctrl-C must still stop the command, not be mistaken for "not a sandbox".
    if (options.signal?.aborted) throw options.signal.reason;
    if (e instanceof AuthError) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    options.debug?.(`GET ${url} failed: ${reason} (sandbox tables probe)`);
    return { sandbox: false, reason };
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/** The HTTP layer's own error for a 401/402, so the wording is the same as for any other request. */
async function authFailure(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  token: string | undefined,
): Promise<AuthError> {
  const [{ errorForResponse }, { createRedactor }] = await Promise.all([import("../api/error-map.js"), import("../api/redact.js")]);
  const error = errorForResponse(
    { status, statusText: "", headers, text },
    {
      method: "GET",
      path: SANDBOX_TABLES_PATH,
      idempotent: true,
      earlierMayHaveArrived: false,
      redact: token ? createRedactor(token) : (t) => t,
      now: new Date(),
    },
  );
  return error instanceof AuthError ? error : new AuthError(error.message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
