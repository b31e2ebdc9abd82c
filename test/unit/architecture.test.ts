// The shape of src/ that newcomers rely on (issue 11, issue 22; docs/architecture.md): arrows point down the floors
// below (a folder imports only from lower floors), no two files import each other in a circle (type imports count: a
// circle of types is still one to a reader), and no file grows past 300 lines.
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
 * The floors of src/, top first (docs/architecture.md): a folder imports only from folders of lower floors (later in
 * this list), never from a higher floor's nor from another folder of its own floor, so the folders' imports have one
 * order and no loop. Files at the top of src/ are placed by name.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["main.ts"],
  // The program's wiring, and the real world's deps (the connection and client the commands' Deps build).
  ["commands", "system-deps.ts"],
  // Workflows that run on other workflows: the MCP server's tools, watch.
  ["mcp", "watch"],
  ["shipments", "due"],
  // Workflows, one folder per thing the user works on.
  ["addresses", "checkout", "reports", "raw-api", "completion", "demo", "rehearsal"],
  // The write pipeline (each workflow gives it the spec of its rows), and typed input from flags and JSON files.
  ["batch", "input"],
  ["csv"],
  ["ledger"],
  // Profiles and credentials; the sandbox (the contract's local implementation).
  ["config", "sandbox"],
  ["deps.ts"],
  ["api", "output", "fs", "prompter.ts"],
  ["contract", "errors.ts", "clock.ts", "env.ts", "version"],
];

const floorOf = (path: string): number => {
  const top = path.includes("/") ? path.split("/")[0]! : path;
  const floor = FLOORS.findIndex((names) => names.includes(top));
  if (floor < 0) throw new Error(`${top} is on no floor: add it to FLOORS and docs/architecture.md`);
  return floor;
};
const folderOf = (path: string): string => (path.includes("/") ? path.split("/")[0]! : path);

/** "from -> to" for every folder (or top-level file) that imports one of a higher floor or of its own. */
function arrowsUp(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const pairs = new Set<string>();
  for (const [file, deps] of edges) {
    for (const dep of deps) {
      const [a, b] = [folderOf(rel(file)), folderOf(rel(dep))];
      if (a !== b && floorOf(a) >= floorOf(b)) pairs.add(`${a} -> ${b}`);
    }
  }
  return [...pairs].sort();
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

  it("has no import from a folder to one of a higher floor or of its own", () => {
    expect(arrowsUp(graph)).toEqual([]);
  });

  it("sees an arrow up, and one between two folders of a floor (planted in memory)", () => {
    const file = (path: string) => files.find((f) => rel(f) === path)!;
    const planted = new Map(graph);
    planted.set(file("output/time-format.ts"), [...graph.get(file("output/time-format.ts"))!, file("commands/index.ts")]);
    planted.set(file("batch/pool.ts"), [...graph.get(file("batch/pool.ts"))!, file("input/ids.ts")]);
    expect(arrowsUp(planted)).toEqual(["batch -> input", "output -> commands"]);
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
