// What `shipctl mcp` serves: the tools (only the reading ones with --read-only), run with the server's global flags.
import type { BaseDeps, Deps } from "../deps.js";
import { normaliseBaseUrl } from "../config/base-url.js";
import { refuseBlankProfile } from "../config/settings.js";
import { openConfigContext } from "../config/config-context.js";
import { requireProfile } from "../config/connection.js";
import { InterruptedError } from "../errors.js";
import { flag, READ_TOOLS, when } from "./read-tools.js";
import { serveMcp } from "./server.js";
import { WRITE_TOOLS } from "./write-tools.js";

const INSTRUCTIONS =
  "shipctl's operations on the artwork shipping service. Use show_tables for country and service codes; never guess " +
  "integers. Verify an address before adding it. checkout pays only with the confirm_total_cents that quote_checkout " +
  "returned for the same ids. Writes are recorded before they are sent: repeating a call never creates or charges " +
  "twice, and a call whose answer was lost says when calling again settles it. Times written YYYY-MM-DD HH:MM:SS " +
  "(created_at, delivered_at, arrived_at, closes_at...) are UTC, as the service writes them: not the user's local time.";

export async function startMcp(deps: Deps, options: { readOnly: boolean; runShipctl: (argv: string[], base: BaseDeps) => Promise<number> }): Promise<void> {
  const tools = options.readOnly ? READ_TOOLS : [...READ_TOOLS, ...WRITE_TOOLS];
  const g = deps.globals;
  // Refused now, not in every tool call the server would go on to answer.
  refuseBlankProfile(g.profile);
  if (g.baseUrl !== undefined) normaliseBaseUrl(g.baseUrl, "--base-url");
  requireProfile((await openConfigContext(deps)).settings);
  const globalArgs = [
    ...flag("--profile", g.profile),
    ...flag("--base-url", g.baseUrl),
    ...when(g.debug, "--debug"),
    ...when(g.quiet, "--quiet"),
  ];
  const talk = (text: string) => deps.io.err(text);
  // The server's own BaseDeps; each call replaces io and prompter (tool-call.ts).
  const base: BaseDeps = { io: deps.io, prompter: deps.prompter, clock: deps.clock, env: deps.env, cwd: deps.cwd, signal: deps.signal, writeSignal: deps.writeSignal, writesInFlight: deps.writesInFlight, connect: deps.connect, makeApi: deps.makeApi };
  talk(`shipctl mcp ${deps.version}: ${tools.length} tools${options.readOnly ? " (read-only)" : ""} on stdio; logs on stderr\n`);
  await serveMcp({
    tools,
    version: deps.version,
    instructions: INSTRUCTIONS,
    call: { runShipctl: options.runShipctl, base, globalArgs, talk },
  });
  if (deps.signal.aborted) throw new InterruptedError("interrupted: the MCP server stopped");
}
