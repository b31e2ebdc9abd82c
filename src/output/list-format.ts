// The formats a list can be printed in (commands/list/list-records.ts prints them); apart so the command line can
// check a --format without loading the table renderer.
export const LIST_FORMATS = ["table", "json", "ndjson", "csv"] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];
