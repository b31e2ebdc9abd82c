// What a run of the built CLI loads: every file of dist/ (with the sources each chunk was bundled from, read from
// its source map), and Node's own modules. A module hook notes each file Node loads. The built-in modules
// (process.moduleLoadList at exit, as `NativeModule net`) are noted in a second run without that hook, whose thread
// has Node build the streams of stdout and stderr, and so load node:net, in any run. For tests that a command stays
// light: what it must not load is a fact the code can break, unlike a time.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN, cliEnv, tempDir } from "./cli.js";

export interface Loaded {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Every source file bundled into a dist/ file the run loaded, as its source map names it (`../../src/main.ts`). */
  sources: string[];
  /** The npm packages bundled into what it loaded. */
  packages: string[];
  /** Node's public built-in modules it loaded (`fs`, `net`, `child_process`...). */
  builtins: string[];
}

/** Runs `shipctl ARGS` (stdin, stdout and stderr pipes, as runCli) noting what it loads. */
export function loadedBy(args: string[], env: NodeJS.ProcessEnv = cliEnv()): Loaded {
  const dir = tempDir("shipctl-loads-");
  const files = join(dir, "files.txt");
  const builtins = join(dir, "builtins.txt");
  const loader = join(dir, "loader.mjs");
  writeFileSync(
    loader,
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(files)}, url + "\\n");
  return next(url, context);
}
`,
  );
  const hook = join(dir, "hook.mjs");
  writeFileSync(hook, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(loader).href)});\n`);
  const atExit = join(dir, "at-exit.mjs");
  writeFileSync(
    atExit,
    // node:fs not imported as an ES module: that reads every export of it, and its ReadStream getter loads node:stream.
    `const { writeFileSync } = process.getBuiltinModule("node:fs");
process.on("exit", () => writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join("\\n")));
`,
  );
  const run = (preload: string) => spawnSync(process.execPath, ["--import", preload, BIN, ...args], { env, encoding: "utf8", input: "" });
  const r = run(hook);
  run(atExit);
  const chunks = readFileSync(files, "utf8").split("\n").filter((u) => u.includes("/dist/"));
  const sources = chunks.flatMap((url) => (JSON.parse(readFileSync(`${new URL(url).pathname}.map`, "utf8")) as { sources: string[] }).sources);
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    sources,
    packages: [...new Set(sources.flatMap((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1] ?? []))].sort(),
    builtins: readFileSync(builtins, "utf8")
      .split("\n")
      .flatMap((m) => /^NativeModule ([^/]+)$/.exec(m)?.[1] ?? []),
  };
}
