// The shape of src/ that newcomers rely on (issue 11, issue 22; docs/architecture.md): arrows point down the floors
// below, no two folders of one floor import each other, no two files import each other in a circle (type imports
// count: a circle of types is still one to a reader), and no file grows past 300 lines.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const SRC = resolve(import.meta.dirname, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.ts$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

const files = sources(SRC);
const known = new Set(files);

/** The files of src/ a file imports (static, dynamic and type imports, and re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/gm)].map((m) => m[1] ?? m[2]!);
  return specs
    .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, ".ts"))
    .map((path) => (known.has(path) ? path : join(path.replace(/\.ts$/, ""), "index.ts")))
    .filter((path) => known.has(path));
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));
/** A file's place in src/, with / on every system (Windows gives `\`). */
const rel = (f: string) => relative(SRC, f).split(sep).join("/");

/**
 * The floors of src/, top first (docs/architecture.md): a folder imports from its own floor or a lower one, never a
 * higher one. Files at the top of src/ are placed by name.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["main.ts", "program.ts", "commands"],
  // Workflows: folders named for what the user works on, and the sandbox the tests and the demo run.
  ["mcp", "demo", "completion", "due", "watch", "rehearsal", "raw-api", "checkout", "reports", "shipments", "addresses", "sandbox"],
  // The write pipeline.
  ["batch"],
  ["ledger", "csv", "api", "config", "input"],
  ["contract", "output", "fs", "version", "deps.ts", "errors.ts", "clock.ts", "prompter.ts", "env.ts"],
];

/**
 * deps.ts builds the run's services (the API client, the connection) when first asked, so it is the one file that
 * names higher floors; everything else receives them through Deps.
 */
const COMPOSITION_ROOT = "deps.ts";

/**
 * Arrows the one write pipeline (issue 22 item 1, after the ledger) removes: batch/open-csv-ledger.ts builds each kind's
 * scan spec itself (addresses/address-spec.ts, shipments/shipment-spec.ts, shipment-row.ts) instead of being given it,
 * batch/before-send.ts and patch-rows.ts verify addresses through addresses/address-set.ts, and batch/row-sender.ts
 * takes shipments/create-sender.ts's offsetOf. 
 */
const WRITE_PIPELINE_EXCEPTIONS: readonly string[] = ["batch -> addresses", "batch -> shipments"];

const floorOf = (path: string): number => {
  const top = path.includes("/") ? path.split("/")[0]! : path;
  const floor = FLOORS.findIndex((names) => names.includes(top));
  if (floor < 0) throw new Error(`${top} is on no floor: add it to FLOORS and docs/architecture.md`);
  return floor;
};
const folderOf = (path: string): string => (path.includes("/") ? path.split("/")[0]! : path);

/** "from -> to" for every folder that imports a higher floor's, or a folder of its own floor that imports it back. */
function arrowsUp(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const pairs = new Set<string>();
  for (const [file, deps] of edges) {
    if (rel(file) === COMPOSITION_ROOT) continue;
    for (const dep of deps) {
      const [a, b] = [folderOf(rel(file)), folderOf(rel(dep))];
      if (a !== b) pairs.add(`${a} -> ${b}`);
    }
  }
  return [...pairs]
    .filter((pair) => {
      const [a, b] = pair.split(" -> ") as [string, string];
      // Folders of one floor may lean on each other one way; the files at the top of src/ are placed singly.
      const mutual = a.includes(".") || b.includes(".") ? false : pairs.has(`${b} -> ${a}`);
      return floorOf(a) > floorOf(b) || (floorOf(a) === floorOf(b) && mutual);
    })
    .sort();
}

/** Strongly connected components of two files or more (Tarjan). */
function circles(): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)!) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(rel(w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return found;
}

describe("the shape of src/", () => {
  it("has no import circle", () => {
    expect(circles()).toEqual([]);
  });

  it("has no arrow from a lower floor to a higher one, nor two folders of one floor importing each other", () => {
    expect(arrowsUp(graph)).toEqual([...WRITE_PIPELINE_EXCEPTIONS].sort());
  });

  it("sees an arrow up, and one between folders of a floor both ways (planted in memory)", () => {
    const file = (path: string) => files.find((f) => rel(f) === path)!;
    const planted = new Map(graph);
    planted.set(file("output/time-format.ts"), [...graph.get(file("output/time-format.ts"))!, file("commands/index.ts")]);
    planted.set(file("api/client.ts"), [...graph.get(file("api/client.ts"))!, file("csv/cells.ts")]);
    planted.set(file("csv/cells.ts"), [...graph.get(file("csv/cells.ts"))!, file("api/client.ts")]);
    expect(arrowsUp(planted)).toEqual(expect.arrayContaining(["output -> commands", "api -> csv", "csv -> api"]));
  });

  it("has no file over 300 lines", () => {
    const long = files.map((f) => [rel(f), readFileSync(f, "utf8").split("\n").length] as const).filter(([, n]) => n > 300);
    expect(long).toEqual([]);
  });

  it("sees the imports it checks (a circle planted in memory is found)", () => {
    const [a, b] = files;
    graph.set(a!, [...graph.get(a!)!, b!]);
    graph.set(b!, [...graph.get(b!)!, a!]);
    try {
      expect(circles().length).toBeGreaterThan(0);
    } finally {
      graph.set(a!, importsOf(a!));
      graph.set(b!, importsOf(b!));
    }
  });
});
