// The sandbox verbs (`shipctl sandbox status|clock|payment|tick`) change state on purpose, so they must only ever
// reach a shipctl sandbox, never the real service of a profile. Before anything else they ask the base URL
// GET /_sandbox/tables, the question `shipctl login` already asks:
// - it is a GET, so asking a real service changes nothing there;
// - a real service has no /_sandbox/ routes, and only a sandbox answers it with its own shape ({"sandbox": true,
//   countries, services}); a 404, an HTML page, a proxy's answer or a network error all read "not a sandbox";
// - a header on every answer would also need a request to see, and is what proxies add, strip or copy; a body in a
//   sandbox-specific shape is much harder to get by accident.
// Anything but a sandbox is refused (exit 2) with nothing sent beyond that GET.
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { probeSandboxTables, SANDBOX_TABLES_PATH } from "../config/tables-probe.js";
import { createSandboxControl, type SandboxControl } from "../api/sandbox-control.js";

/**
 * Runs `work` with the control client of the sandbox the run's base URL names, closed afterwards; a UsageError when
 * the base URL is not a sandbox.
 */
export async function withRunningSandbox<T>(deps: Deps, work: (control: SandboxControl) => Promise<T>): Promise<T> {
  const { baseUrl, token, profile, sources, caFile } = await deps.connection();
  const network = { env: deps.env, caFile };
  const debug = (line: string) => deps.debug(line);
  const probe = await probeSandboxTables(baseUrl, { token, signal: deps.signal, debug, network });
  if (!probe.sandbox) {
    const from = sources.baseUrl === "profile" ? `profile "${profile}"` : sources.baseUrl === "env" ? "SHIPCTL_BASE_URL" : "--base-url";
    throw new UsageError(
      `${baseUrl} (from ${from}) is not a shipctl sandbox: GET ${SANDBOX_TABLES_PATH} ${probe.reason}. ` +
        "The sandbox verbs change shipments, the clock and the payment method, so they only talk to a sandbox; nothing was sent.",
      { hint: "Start one with `shipctl sandbox &`, then pass --base-url http://127.0.0.1:8080 (or use a profile logged in to it)." },
    );
  }
  const control = createSandboxControl({ baseUrl, token, clock: deps.clock, signal: deps.signal, debug, network });
  try {
    return await work(control);
  } finally {
    await control.close();
  }
}
