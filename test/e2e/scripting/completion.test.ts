// `shipctl completion bash` sourced in a real bash, with `shipctl` found on PATH (a wrapper around this worktree's
// built bin/shipctl.js) and a config folder of the test's own: the completion function is called as bash calls it
// on TAB (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT) and COMPREPLY is what the user would be offered. The
// profile's tables are stored by the commands themselves (config set baseUrl, config tables confirm), offline.
// zsh and fish are run too where they are installed (the suite does not need them; CI installs them and never
// skips); PowerShell is checked as text.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, cliEnv, runCli, tempDir } from "../../helpers/cli.js";
import { loadedBy } from "../../helpers/loaded-modules.js";

/** Whether `shell` runs here; under CI it must (.ci/run installs zsh and fish): the tests never skip there. */
const has = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).status === 0 || process.env.CI === "true";

let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const bin = tempDir("shipctl-path-");
  writeFileSync(join(bin, "shipctl"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, "shipctl"), 0o755);
  const configDir = tempDir("shipctl-config-");
  env = { ...cliEnv({ configDir }), PATH: `${bin}:${process.env.PATH ?? ""}` };
  for (const args of [["config", "set", "baseUrl", "http://127.0.0.1:8080"], ["config", "tables", "confirm", "--yes"]]) {
    const r = await runCli(args, { configDir });
    expect(r.exitCode, r.stderr).toBe(0);
  }
});

/** What bash offers for the line `shipctl WORDS` with the cursor at its end (the last word being completed). */
function bashOffers(words: string[]): string[] {
  const line = ["shipctl", ...words].join(" ");
  const script = `
source <(shipctl completion bash) || exit 3
fn=$(complete -p shipctl | sed -E 's/.*-F ([^ ]+) .*/\\1/')
COMP_WORDS=(shipctl "$@"); COMP_CWORD=$#; COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}; COMPREPLY=()
"$fn" shipctl "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", script, "bash", ...words], { env, encoding: "utf8", cwd: ROOT });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").filter((l) => l !== "");
}

function commonStart(words: readonly string[]): string {
  return words.reduce((start, word) => {
    let n = 0;
    while (n < start.length && start[n] === word[n]) n++;
    return start.slice(0, n);
  });
}

describe("completion in a real bash", () => {
  it("completes a command and a verb's flag (the issue's examples)", () => {
    expect(bashOffers(["sh"])).toEqual(["shipment"]);
    expect(bashOffers(["shipment", "create", "--ser"])).toEqual(["--service"]);
  });

  it("completes statuses, and the services of the profile's stored tables, quoted for bash", () => {
    expect(bashOffers(["list", "shipments", "--status", "dr"])).toEqual(["draft", "drop-off"]);
    expect(bashOffers(["shipment", "create", "--service", ""])).toEqual(["Standard", "Express", "White\\ Glove"]);
    expect(bashOffers(["list", "shipments", "--delimiter", ""])).toEqual(["\\,", "\\;"]);
    expect(bashOffers(["--profile", ""])).toEqual(["default"]);
    // `--service=Wh`, which bash splits at the = into three words.
    expect(bashOffers(["shipment", "create", "--service", "=", "Wh"])).toEqual(["White\\ Glove"]);
  });

  it("a second TAB leaves the word the first TAB wrote as it is (issue 20: id\\,status became id\\\\\\,status)", () => {
    const fields = (word: string) => bashOffers(["list", "shipments", "--json", "--fields", word]);
    const first = fields("id,st");
    expect(first).toEqual(["id\\,status", "id\\,status_name"]);
    // bash writes the offers' common start on the line; the next TAB completes that word as typed.
    expect(fields(commonStart(first))).toEqual(first);
    expect(bashOffers(["shipment", "create", "--service", "White\\ G"])).toEqual(["White\\ Glove"]);
  });

  it("a word begun with a quote is completed inside it: values as they are, for readline to quote (-o filenames)", () => {
    expect(bashOffers(["shipment", "create", "--service", '"White G'])).toEqual(["White Glove"]);
    expect(bashOffers(["shipment", "create", "--service", "'Wh"])).toEqual(["White Glove"]);
    expect(bashOffers(["list", "shipments", "--json", "--fields", '"id,st'])).toEqual(["id,status", "id,status_name"]);
  });

  it("offers file names where shipctl knows no values, and none where it does", () => {
    expect(bashOffers(["shipment", "create", "--file", "packag"]).sort()).toEqual(["package-lock.json", "package.json"]);
    expect(bashOffers(["shipment", "create", "--service", "packag"])).toEqual([]);
  });
});

it("completes without loading the heavy modules (undici, zod, csv-parse, sharp...)", () => {
  const r = loadedBy(["__complete", "shipment", "create", "--service", ""], env);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain("White Glove");
  expect(r.packages).toEqual(["commander"]);
});

describe("the other shells' scripts", () => {
  const script = async (shell: string) => {
    const r = await runCli(["completion", shell]);
    expect(r.exitCode, r.stderr).toBe(0);
    return r.stdout;
  };

  it("each asks the same `shipctl __complete` and registers for shipctl", async () => {
    expect(await script("zsh")).toMatch(/^#compdef shipctl\n[\s\S]*shipctl __complete[\s\S]*compdef _shipctl shipctl/);
    expect(await script("fish")).toMatch(/shipctl __complete[\s\S]*complete -c shipctl -f -a '\(__shipctl_complete\)'/);
    expect(await script("powershell")).toMatch(/Register-ArgumentCompleter -Native -CommandName shipctl[\s\S]*& shipctl __complete @words \$current/);
  });

  it("PowerShell's inserts a value quoted unless PowerShell takes it as it is (a comma is an array, a $ a variable)", async () => {
    const text = await script("powershell");
    // No PowerShell here: the script's test is run as a regular expression (.NET reads this one as JavaScript does).
    expect(text).toMatch(/\$value -notmatch '[^']+'/);
    const bare = new RegExp(/\$value -notmatch '([^']+)'/.exec(text)![1]!);
    const quoted = ["id,status", "Next-Day$$", "O'Keeffe", "White Glove", ",", ";", "@home", "a`b"].filter((v) => !bare.test(v));
    expect(quoted).toEqual(["id,status", "Next-Day$$", "O'Keeffe", "White Glove", ",", ";", "@home", "a`b"]);
    expect(["Standard", "drop-off", "--service", "C:\\photos\\1201", "status_name"].every((v) => bare.test(v))).toBe(true);
    expect(text).toContain(`"'" + ($value -replace "['\\u2018-\\u201B]", '$0$0') + "'"`);
  });

  it("refuses a shell it has no script for (exit 2)", async () => {
    const r = await runCli(["completion", "tcsh"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("bash, zsh, fish, powershell");
  });

  it.skipIf(!has("fish"))("fish completes with it (fish is installed here)", async () => {
    const file = join(tempDir("shipctl-fish-"), "shipctl.fish");
    writeFileSync(file, await script("fish"));
    const offers = (line: string) => {
      const r = spawnSync("fish", ["--no-config", "-c", `source ${file}; complete -C ${JSON.stringify(line)}`], { env, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.split("\n").filter((l) => l !== "").map((l) => l.split("\t")[0]);
    };
    expect(offers("shipctl sh")).toEqual(["shipment"]);
    expect(offers("shipctl shipment create --ser")).toEqual(["--service"]);
    expect(offers("shipctl shipment create --service ").sort()).toEqual(["Express", "Standard", "White Glove"]);
    // A word with a space, as fish writes it after a first TAB (escaped) or as typed (quoted): completed as a word.
    expect(offers("shipctl shipment create --service White\\ G")).toEqual(["White Glove"]);
    expect(offers('shipctl shipment create --service "White G')).toEqual(["White Glove"]);
    const photos = join(tempDir("shipctl-fish-photos-"), "Condition photos");
    mkdirSync(join(photos, "set 1"), { recursive: true });
    expect(offers(`shipctl report upload 12 ${photos.replace(/ /g, "\\ ")}/set\\ `)).toEqual([`${photos}/set 1/`]);
  });

  it.skipIf(!has("zsh"))("zsh reads it, and its function hands shipctl's values to _describe (zsh is installed here)", async () => {
    const file = join(tempDir("shipctl-zsh-"), "_shipctl");
    writeFileSync(file, await script("zsh"));
    // No interactive completion system here: compdef and _describe are stood in for, words/CURRENT set as zsh does.
    const run = `compdef() { :; }; _describe() { print -rl -- "\${(@P)4}"; }; _files() { print files; }
source ${file}; words=(shipctl shipment create --service ''); CURRENT=5; _shipctl`;
    const r = spawnSync("zsh", ["-f", "-c", run], { env, encoding: "utf8", cwd: ROOT });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter((l) => l !== "")).toEqual(["Standard:service 1", "Express:service 2", "White Glove:service 3"]);
    // A word begun with a quote: zsh keeps the quote in words and gives the word without it in PREFIX.
    const quoted = run.replace("--service ''); CURRENT=5;", `--service '"White G'); CURRENT=5; PREFIX='White G';`);
    const q = spawnSync("zsh", ["-f", "-c", quoted], { env, encoding: "utf8", cwd: ROOT });
    expect(q.status, q.stderr).toBe(0);
    expect(q.stdout.split("\n").filter((l) => l !== "")).toEqual(["White Glove:service 3"]);
  });
});
