// Every command README.md and docs/*.md show runs, with the exit code the page gives it (`# exit N`, else 0) and,
// in a console block, printing the lines shown under it. Each page runs in one bash, in order (variables, `cd` and
// files carry from one block to the next, as in a reader's shell), in a temporary folder holding
// test/fixtures/docs/, against a sandbox of its own, logged in with a config folder of its own. The convention is
// in docs/development.md ("Examples in the documentation are run").
import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox/server.js";
import { BIN, cliEnv, ROOT, runCli, tempDir } from "../../helpers/cli.js";
import { documentationPages, parseDocPage, showsOutput, type DocCommand } from "../../helpers/doc-examples.js";

/** The sandbox address the pages write; each page's run points it at its own sandbox. */
const PAGE_SANDBOX_URL = "http://127.0.0.1:8080";
/** `shipctl sandbox ... &`: the page starts a sandbox; the test's own stands in for it. */
const STARTS_SANDBOX = /^shipctl sandbox(?!\s+(status|clock|payment|tick)\b)[^|;&]*&\s*(#.*)?$/;
/** How long one command may run before the page's run is stopped (a command waiting forever). */
const COMMAND_LIMIT_MS = 30_000;

interface Ran {
  codes: Map<number, number>;
  hung: number | null;
  out: (i: number) => string;
  err: (i: number) => string;
}

describe.concurrent.each(documentationPages(ROOT))("the commands %s shows", (page) => {
  const commands = parseDocPage(readFileSync(join(ROOT, page), "utf8")).commands;

  it.skipIf(commands.length === 0)("run as the page says", { timeout: 60_000 + commands.length * 5_000 }, async () => {
    // A sandbox of the page's own: ids start at 1, as the page's setup expects.
    const sandbox = await startSandbox({ port: 0, log: () => {} });
    const ran = await runPage(commands, sandbox).finally(() => sandbox.close());
    const failures = commands.flatMap((c, i) => check(page, c, i, ran));
    expect(failures.join("\n\n")).toBe("");
  });
});

function check(page: string, c: DocCommand, i: number, ran: Ran): string[] {
  if (STARTS_SANDBOX.test(c.command)) return [];
  const where = `${page}:${c.line}: ${c.command}`;
  if (ran.hung === i) return [`${where}\n  still running after ${COMMAND_LIMIT_MS / 1000} s`];
  const code = ran.codes.get(i);
  if (code === undefined) return [`${where}\n  never ran: an earlier command ended the page's shell (an exit, a kill)`];
  const printed = `stdout:\n${ran.out(i)}\nstderr:\n${ran.err(i)}`;
  if (code !== c.exit) return [`${where}\n  exit ${code}, the page says ${c.exit}\n${printed}`];
  if (c.output && c.output.length > 0 && !showsOutput(`${ran.out(i)}\n${ran.err(i)}`, c.output)) {
    return [`${where}\n  the page shows:\n${c.output.join("\n")}\n  it printed:\n${printed}`];
  }
  return [];
}

/** One bash for the page: each command's stdout, stderr and exit code in files of its own. */
async function runPage(commands: DocCommand[], sandbox: RunningSandbox): Promise<Ran> {
  const work = tempDir("shipctl-docs-");
  const results = join(work, ".results");
  const bin = join(work, ".bin");
  mkdirSync(results);
  mkdirSync(bin);
  cpSync(join(ROOT, "test", "fixtures", "docs"), work, { recursive: true });
  writeFileSync(join(bin, "shipctl"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(bin, "shipctl"), 0o755);

  const configDir = join(work, ".config");
  const login = await runCli(["login", "--base-url", sandbox.url, "--token-stdin"], { configDir, stdin: sandbox.token });
  expect(login.exitCode, login.stderr).toBe(0);

  const script = commands
    .map((c, i) =>
      STARTS_SANDBOX.test(c.command)
        ? ""
        : `{\n${c.command.replaceAll(PAGE_SANDBOX_URL, sandbox.url)}\n} >"${results}/${i}.out" 2>"${results}/${i}.err" </dev/null\n` +
          `echo "${i} $?" >>"${results}/codes"\n`,
    )
    .join("");
  // FIXTURES: the repository's fixtures/, for a setup comment to copy photos from; HELPERS: test/helpers/, for its
  // scripts (own-photos.mjs: a copy of a photo folder with photos of its own).
  const env = { ...cliEnv({ configDir }), PATH: `${bin}:${process.env.PATH}`, FIXTURES: join(ROOT, "fixtures"), HELPERS: join(ROOT, "test", "helpers") };
  const child = spawn("bash", ["-c", script], { cwd: work, env, detached: true, stdio: "ignore" });

  const codesFile = join(results, "codes");
  const readCodes = () =>
    new Map(
      (existsSync(codesFile) ? readFileSync(codesFile, "utf8") : "")
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" ").map(Number) as [number, number]),
    );
  let hung: number | null = null;
  await new Promise<void>((resolve) => {
    let seen = -1;
    let since = Date.now();
    const watchdog = setInterval(() => {
      const done = readCodes().size;
      if (done !== seen) [seen, since] = [done, Date.now()];
      else if (Date.now() - since > COMMAND_LIMIT_MS) {
        hung = commands.findIndex((c, i) => !STARTS_SANDBOX.test(c.command) && !readCodes().has(i));
        process.kill(-child.pid!, "SIGKILL");
      }
    }, 500);
    child.on("close", () => {
      clearInterval(watchdog);
      resolve();
    });
  });
  const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
  return { codes: readCodes(), hung, out: (i) => read(join(results, `${i}.out`)), err: (i) => read(join(results, `${i}.err`)) };
}
