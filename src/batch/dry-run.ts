// --dry-run: what would be sent, printed as the rows are read (a 100,000-row file is never held in memory).
// People get one line per row; --json gets one document {"dry_run": true, "would_send": [...], "blocked": [...], ...}
// written incrementally. Rows that would not be sent (their address check failed) have no request body: they get a
// line of their own (row, reference, title or name, reason) and, in JSON, the separate "blocked" list, so a script
// counting would_send counts only what would be sent. Blocked rows wait for the end of the document in a
// BlockedStore: a file's go to a spill (when the service cannot verify, every row of the file is blocked, however
// many there are), a few items from --file stay in memory.
import type { IO } from "../output/io.js";
import type { Shipment } from "../contract/index.js";
import { textBuffer } from "../output/text-buffer.js";
import type { Spill } from "../csv/spill.js";
import type { Change } from "../csv/row-types.js";

export interface WouldSend {
  row: number;
  reference?: string;
  /** The request body for this row (a shipment, an address). */
  body: Record<string, unknown>;
  changes: readonly Change[];
}

/** A row that would not be sent: its address check failed. */
export interface Blocked {
  row: number;
  reference?: string;
  /** The shipment's title or the address's name. */
  label: string;
  reason: string;
}

export interface DryRunPrinter {
  row(item: WouldSend): void;
  blocked(item: Blocked): void;
  end(tail: Record<string, unknown>): Promise<void>;
}

/** Where a JSON dry run keeps the "blocked" entries until the end of its document, in order. */
export interface BlockedStore {
  add(entry: Record<string, unknown>): void;
  entries(): AsyncIterable<Iterable<Record<string, unknown>>>;
}

/** A file's blocked rows, which can be all of its rows (the service could not verify): they wait in a spill. */
export function spilledBlockedStore(spill: Spill<Record<string, unknown>>): BlockedStore {
  return {
    add: (entry) => spill.add(entry),
    entries: () => {
      spill.finish();
      return spill.batches();
    },
  };
}

export function memoryBlockedStore(): BlockedStore {
  const list: Array<Record<string, unknown>> = [];
  return {
    add: (entry) => list.push(entry),
    async *entries() {
      yield list;
    },
  };
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function side(s: Record<string, unknown>, name: string): string {
  const id = s[`${name}_address_id`];
  if (id !== undefined) return `address ${String(id)}`;
  const a = s[`${name}_address`] as { name?: string; city?: string } | undefined;
  return a ? `${a.name ?? ""}, ${a.city ?? ""}` : "";
}

/** One line per row; columns of fixed width so the output streams (no table needs every row first). */
function shipmentLine(item: WouldSend): string {
  const s = item.body as Partial<Shipment> & Record<string, unknown>;
  const id = s.id !== undefined ? `#${String(s.id)} ` : "";
  const what = `${id}${s.title ?? ""}`;
  const dims = `${s.length}x${s.height}x${s.depth} in`;
  return `${String(item.row).padStart(5)}  ${cut(item.reference ?? "", 12)}  ${cut(what, 30)}  ${String(`$${s.value}`).padStart(7)}  ${dims.padEnd(11)}  svc ${String(s.service).padEnd(3)}  ${cut(side(s, "fulfillment"), 26)} -> ${side(s, "destination")}\n`;
}

function addressLine(item: WouldSend): string {
  const a = item.body as Record<string, unknown>;
  return `${String(item.row).padStart(5)}  ${cut(item.reference ?? "", 12)}  ${cut(String(a.name ?? ""), 30)}  ${cut(String(a.line_1 ?? ""), 30)}  ${String(a.city ?? "")}, ${String(a.post_code ?? "")}\n`;
}

/** A blocked row: no payload columns (there is no request body), only who it is and why it would not be sent. */
function blockedLine(item: Blocked): string {
  return `${String(item.row).padStart(5)}  ${cut(item.reference ?? "", 12)}  ${cut(item.label, 30)}  not sent: ${item.reason}\n`;
}


/** `position` names what `row` numbers: spreadsheet rows (CSV), or items 1..N of a JSON list or the flags. */
export function dryRunPrinter(
  io: IO,
  json: boolean,
  kind: "shipment" | "address",
  position: "row" | "item" = "row",
  blocked: BlockedStore = memoryBlockedStore(),
): DryRunPrinter {
  let first = true;
  // Rows go to stdout some 64 KB at a time rather than one write each.
  const pending = textBuffer((text) => io.out(text));
  const out = (text: string) => pending.add(text);
  if (json) out('{"dry_run":true,"would_send":[');
  else if (kind === "shipment") out(`${position.toUpperCase().padStart(5)}  ${"REFERENCE".padEnd(12)}  ${"TITLE".padEnd(30)}  ${"VALUE".padStart(7)}  ${"L x H x D".padEnd(11)}  SERVICE  FROM -> TO\n`);
  else out(`${"ROW".padStart(5)}  ${"REFERENCE".padEnd(12)}  ${"NAME".padEnd(30)}  ${"LINE 1".padEnd(30)}  CITY, POST CODE\n`);
  const labelKey = kind === "shipment" ? "title" : "name";
  return {
    row(item) {
      if (json) {
        const doc = { [position]: item.row, reference: item.reference ?? null, [kind]: item.body, ...(item.changes.length > 0 ? { changes: item.changes } : {}) };
        out(first ? "\n" : ",\n");
        out(JSON.stringify(doc));
        first = false;
      } else out(kind === "shipment" ? shipmentLine(item) : addressLine(item));
    },
    blocked(item) {
      if (json) blocked.add({ [position]: item.row, reference: item.reference ?? null, [labelKey]: item.label, reason: item.reason });
      else out(blockedLine(item));
    },
    async end(tail) {
      if (json) {
        // The same text as JSON.stringify of the whole list, one entry at a time.
        out('\n],"blocked":[');
        let firstBlocked = true;
        for await (const entries of blocked.entries()) {
          for (const entry of entries) {
            if (!firstBlocked) out(",");
            out(JSON.stringify(entry));
            firstBlocked = false;
          }
        }
        const rest = JSON.stringify(tail).slice(1, -1);
        out(`]${rest ? `,${rest}` : ""}}\n`);
      }
      pending.flush();
    },
  };
}
