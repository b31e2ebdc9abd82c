import type { Tables } from "../contract/index.js";

/** Where a resolved setting came from: precedence is flag > env > profile. */
export type Source = "flag" | "env" | "profile" | "default";

/** Everything needed to talk to the service, resolved from flags, environment and the profile. */
export interface Connection {
  profile: string;
  baseUrl: string;
  token: string;
  /** The profile's Country and Service tables (sandbox's when the profile points at one). */
  tables: Tables;
  /** True when the base URL answers the sandbox's control surface (its tables may be applied freely). */
  isSandbox: boolean;
  sources: { baseUrl: Source; token: Source; profile: Source };
}
