import type { Tables } from "../contract/index.js";
import type { LedgerSettings } from "./ledger-setting.js";

/** Where a resolved setting came from: precedence is flag > env > profile. */
export type Source = "flag" | "env" | "profile" | "default";

/** Everything needed to talk to the service, resolved from flags, environment and the profile. */
export interface Connection {
  profile: string;
  baseUrl: string;
  token: string;
  /**
   * The Country and Service tables that apply to this service: the sandbox's own when the base URL is a sandbox,
   * otherwise the profile's (source "imported"/"confirmed"), or empty tables with source "unconfirmed".
   * Loaded on first use (it may ask the service once), so commands that only take integers never pay for it.
   */
  tables(): Promise<Tables>;
  sources: { baseUrl: Source; token: Source; profile: Source };
  /** The profile's CA file (absolute path), trusted besides Node's own CAs. */
  caFile?: string;
  /**
   * Where the organization's ledger is (local, or a team's PostgreSQL database) and the organization's name there;
   * resolveConnection always sets it (unit tests' stubs leave it out: the local store).
   */
  ledger?: LedgerSettings;
}
