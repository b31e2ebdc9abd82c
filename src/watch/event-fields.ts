// The keys of a `watch --ndjson` event (changes.ts), apart so the command's wiring can offer them to --fields without
// loading the loop. The type keeps each one a key of WatchEvent; a unit test keeps the list equal to a real event's.
import type { WatchEvent } from "./changes.js";

export const WATCH_EVENT_FIELDS = ["id", "title", "from", "to", "at", "window_closes_at"] as const satisfies ReadonlyArray<keyof WatchEvent>;
