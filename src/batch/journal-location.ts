// Where a batch keeps its journal (documented in docs/csv.md):
//   1. next to the results file when --results is given:    results.csv.shipctl-journal.jsonl
//   2. otherwise next to the input file:                     orders.csv.shipctl-journal.jsonl
//   3. for stdin without --results, in the config folder:    <config>/journals/stdin-<sha256 of the input>.shipctl-journal.jsonl
// A rerun looks in every place that applies and uses the journal it finds, so adding or dropping --results between
// runs cannot make shipctl forget what it sent. Each command has its own journal name.
import { access, mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { configDir } from "../config/paths.js";
import type { BatchKind } from "./columns.js";
import type { CsvSource } from "./source.js";

const SUFFIX: Record<Exclude<BatchKind, "address-verify">, string> = {
  "shipment-create": ".shipctl-journal.jsonl",
  "shipment-update": ".shipctl-update-journal.jsonl",
  "address-add": ".shipctl-address-journal.jsonl",
};

/** The file-name suffix of a command's journal (".shipctl-journal.jsonl" for shipment create). */
export function journalSuffix(kind: Exclude<BatchKind, "address-verify">): string {
  return SUFFIX[kind];
}

export function journalCandidates(
  kind: Exclude<BatchKind, "address-verify">,
  source: CsvSource,
  options: { results?: string; cwd: string; env: NodeJS.ProcessEnv },
): string[] {
  const suffix = SUFFIX[kind];
  const out: string[] = [];
  if (options.results !== undefined) out.push(resolve(options.cwd, options.results) + suffix);
  if (source.stdin) out.push(join(configDir(options.env), "journals", `stdin-${source.digest!.slice(0, 24)}${suffix}`));
  else out.push(source.path + suffix);
  return out;
}

/** The first candidate that already holds a journal, else the first candidate (its folder created). */
export async function chooseJournalPath(candidates: readonly string[]): Promise<string> {
  for (const path of candidates) {
    try {
      await access(path);
      return path;
    } catch {
      // not there
    }
  }
  const chosen = candidates[0]!;
  await mkdir(dirname(chosen), { recursive: true, mode: 0o700 });
  return chosen;
}
