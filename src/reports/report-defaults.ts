// Defaults shared by the wiring (help text) and the logic; kept apart so the wiring imports nothing heavy.

/** Uploads in flight in a batch: two keeps a slow link busy without starving a shared connection. */
export const DEFAULT_UPLOADS = 2;
