// Placeholder until profiles land (replaced by the config/ work).
import type { Deps } from "../deps.js";
import type { Connection } from "./types.js";

export async function resolveConnection(_deps: Deps): Promise<Connection> {
  throw new Error("profiles are not built yet");
}
