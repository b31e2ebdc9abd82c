// What `due` lists and in which order: open windows by the time they close (set 2 from arrived_at + 24 h, set 1 from
// delivered_at + 30 days), then unpaid drafts, then windows closed within --since with no report; --within keeps
// only open windows closing sooner; a set the ledger has stored is not due.
import { describe, expect, it } from "vitest";
import { ShipmentStatus, type StoredShipment } from "../../../src/contract/index.js";
import { createdSince, dueItems, type DueRules } from "../../../src/due/due-items.js";
import { summaryOf } from "../../../src/due/show-due.js";
import { renderDueTable, timeLeft } from "../../../src/due/due-table.js";
import { createTheme } from "../../../src/output/theme.js";
import { displayPath } from "../../../src/output/display-path.js";
import { shellQuote } from "../../../src/output/shell-quote.js";

/** A shipment's photo folder as `due` prints it on this system: one separator, quoted for the shell. */
const photos = (folder: string, id: number) => shellQuote(displayPath(folder, String(id)));

/** Runs `f` as if on `platform` (process.platform, read by the path and shell rules), with no SHIPCTL_SHELL set. */
function onPlatform<T>(platform: NodeJS.Platform, f: () => T): T {
  const real = Object.getOwnPropertyDescriptor(process, "platform")!;
  const shell = process.env.SHIPCTL_SHELL;
  Object.defineProperty(process, "platform", { ...real, value: platform });
  delete process.env.SHIPCTL_SHELL;
  try {
    return f();
  } finally {
    Object.defineProperty(process, "platform", real);
    if (shell !== undefined) process.env.SHIPCTL_SHELL = shell;
  }
}

const NOW = new Date("2026-03-10T12:00:00Z");
const H = 3_600_000;
const D = 24 * H;
const stamp = (ms: number) => new Date(NOW.getTime() + ms).toISOString().slice(0, 19).replace("T", " ");

function ship(id: number, status: number, at: Partial<Pick<StoredShipment, "delivered_at" | "arrived_at" | "created_at">> = {}): StoredShipment {
  return { id, title: `Piece ${id}`, status, created_at: stamp(-40 * D), ...at };
}

const RULES: DueRules = { now: NOW, sinceMs: 7 * D, photos: "./photos", service: [], ledger: new Set() };

const SHIPMENTS = [
  ship(1, ShipmentStatus.Draft),
  ship(2, ShipmentStatus.Delivered, { delivered_at: stamp(-29 * D) }), // set 1: 1 day left
  ship(3, ShipmentStatus.Arrived, { arrived_at: stamp(-20 * H) }), // set 2: 4 h left
  ship(4, ShipmentStatus.Arrived, { arrived_at: stamp(-2 * H) }), // set 2: 22 h left
  ship(5, ShipmentStatus.Delivered, { delivered_at: stamp(-32 * D) }), // set 1 closed 2 days ago
  ship(6, ShipmentStatus.Arrived, { arrived_at: stamp(-10 * D) }), // set 2 closed 9 days ago: before --since
  ship(7, ShipmentStatus.Filed),
  ship(8, ShipmentStatus.Completed),
  ship(9, ShipmentStatus.Arrived, { arrived_at: stamp(-30 * H) }), // set 2 closed 6 h ago
];

describe("dueItems", () => {
  it("lists open windows soonest first, then drafts, then closed windows latest first, each with its next command", () => {
    const items = dueItems(SHIPMENTS, RULES);
    expect(items.map((i) => [i.id, i.kind, i.set])).toEqual([
      [3, "report_window_open", 2],
      [4, "report_window_open", 2],
      [2, "report_window_open", 1],
      [1, "draft_unpaid", null],
      [9, "report_window_closed", 2],
      [5, "report_window_closed", 1],
    ]);
    const [three, , two, one, nine] = items;
    expect(three).toMatchObject({ seconds_left: 4 * 3600, closes_at: stamp(4 * H), next_command: `shipctl report upload 3 --set 2 ${photos("./photos", 3)}`, status_name: "Arrived" });
    expect(two).toMatchObject({ seconds_left: 24 * 3600, next_command: `shipctl report upload 2 --set 1 ${photos("./photos", 2)}` });
    expect(one).toMatchObject({ next_command: "shipctl checkout 1", closes_at: null, seconds_left: null });
    expect(nine).toMatchObject({ seconds_left: -6 * 3600, next_command: null });
    expect(three!.report_sets).toEqual({ set_1: { stored: true, source: "service" }, set_2: { stored: false, source: "service" } });
  });

  it("--within keeps only open windows closing sooner (and those whose close is unknown)", () => {
    const unknown = ship(10, ShipmentStatus.Delivered);
    const items = dueItems([...SHIPMENTS, unknown], { ...RULES, withinMs: 6 * H });
    expect(items.map((i) => [i.id, i.seconds_left])).toEqual([
      [3, 4 * 3600],
      [10, null],
    ]);
  });

  it("a set the ledger records as stored is not due, though the status does not show it yet", () => {
    const items = dueItems(SHIPMENTS, { ...RULES, ledger: new Set(["3/2", "5/1"]) });
    expect(items.map((i) => i.id)).not.toContain(3);
    expect(items.map((i) => i.id)).not.toContain(5);
  });

  it("quotes a photo folder the shell would split", () => {
    const [item] = dueItems([ship(3, ShipmentStatus.Arrived, { arrived_at: stamp(-1 * H) })], { ...RULES, photos: "/srv/my photos/" });
    expect(item!.next_command).toBe(`shipctl report upload 3 --set 2 ${photos("/srv/my photos/", 3)}`);
    if (process.platform !== "win32") expect(item!.next_command).toBe("shipctl report upload 3 --set 2 '/srv/my photos/3'");
    // A folder starting with "-" would be read as an option: it is written ./-x.
    const [dashed] = dueItems([ship(3, ShipmentStatus.Arrived, { arrived_at: stamp(-1 * H) })], { ...RULES, photos: "-photos" });
    expect(dashed!.next_command).toBe(`shipctl report upload 3 --set 2 ${shellQuote(`./${displayPath("-photos", "3")}`)}`);
  });

  it("names the photo folder with one separator, quoted for the platform's shell (Windows and macOS injected)", () => {
    const shipment = ship(3, ShipmentStatus.Arrived, { arrived_at: stamp(-1 * H) });
    const nextOn = (platform: NodeJS.Platform, folder: string) =>
      onPlatform(platform, () => dueItems([shipment], { ...RULES, photos: folder })[0]!.next_command);
    expect(nextOn("win32", "C:\\Users\\Ann O'Neil\\photos")).toBe("shipctl report upload 3 --set 2 'C:\\Users\\Ann O''Neil\\photos\\3'");
    expect(nextOn("darwin", "/Users/ann/Ann O'Neil/photos/")).toBe("shipctl report upload 3 --set 2 '/Users/ann/Ann O'\\''Neil/photos/3'");
  });

  it("keeps shipments created since the moment given, and those that do not say when", () => {
    expect(createdSince(ship(1, 1, { created_at: stamp(-1 * D) }), NOW.getTime() - 2 * D)).toBe(true);
    expect(createdSince(ship(1, 1, { created_at: stamp(-3 * D) }), NOW.getTime() - 2 * D)).toBe(false);
    expect(createdSince({ id: 1, title: "x", status: 1 }, NOW.getTime())).toBe(true);
  });
});

describe("due for people", () => {
  it("says the time left in hours under a day and in days beyond, and how long ago a window closed", () => {
    const items = dueItems(SHIPMENTS, RULES);
    expect(items.map(timeLeft)).toEqual(["4h00m left", "22h00m left", "1d00h left", "", "closed 6 h ago", "closed 2 d ago"]);
  });

  it("highlights under 6 hours left when colours are on, and only then", () => {
    const items = dueItems(SHIPMENTS, RULES);
    const marked = renderDueTable(items, { theme: { ...createTheme(false), enabled: true, error: (s) => `<<${s}>>` } });
    expect(marked).toContain("<<4h00m left>>");
    expect(marked).not.toContain("<<22h00m left>>");
    const plain = renderDueTable(items, { theme: createTheme(false) });
    expect(plain).not.toContain("<<");
    expect(plain.split("\n")[0]).toMatch(/^LEFT\s+ID\s+TITLE\s+STATUS\s+WHAT\s+CLOSES \(UTC\)\s+SETS\s+NEXT$/);
  });

  it("sums up what is due", () => {
    expect(summaryOf(dueItems(SHIPMENTS, RULES), undefined)).toBe("3 report windows open (the soonest closes in 4h00m), 1 unpaid draft, 2 windows closed with no report");
    expect(summaryOf([], 6 * H)).toBe("Nothing due within 6h00m");
  });
});
