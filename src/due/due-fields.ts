// The keys of a `due` item (due-items.ts), apart so the command's wiring can offer them to --fields without loading
// the run. The type keeps each one a key of DueItem; a unit test keeps the list equal to what `due --json` prints.
import type { DueItem } from "./due-items.js";

export const DUE_ITEM_FIELDS = [
  "id",
  "title",
  "status",
  "status_name",
  "kind",
  "set",
  "closes_at",
  "seconds_left",
  "next_command",
  "report_sets",
] as const satisfies ReadonlyArray<keyof DueItem>;
