// The shape of src/ that newcomers rely on (issue 11): arrows point down (commands -> workflows -> ledger, csv, api ->
// contract), no two files import each other in a circle (type imports count: a circle of types is still one to a
// reader), nothing below commands/ imports from it, and no file grows past 300 lines.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

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
const rel = (f: string) => relative(SRC, f);

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

  it("has nothing below commands/ importing from commands/", () => {
    const up = files
      .filter((f) => !rel(f).startsWith("commands/") && rel(f).includes("/"))
      .flatMap((f) => graph.get(f)!.filter((d) => rel(d).startsWith("commands/")).map((d) => `${rel(f)} -> ${rel(d)}`));
    expect(up).toEqual([]);
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
