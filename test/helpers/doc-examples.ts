// Reads the examples out of a Markdown page, as docs/development.md ("Examples in the documentation are run")
// describes them: every command of a ```sh block, every `$ ` line of a ```console block with the output shown under
// it, and the hidden `<!-- setup: ... -->` commands; a block right after `<!-- not-tested: why -->` is left out.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

export interface DocCommand {
  /** The line of the page the command starts on (1-based), for messages. */
  line: number;
  /** Shell text, possibly several lines (a `\` continuation, an if ... fi). */
  command: string;
  /** `# exit N` in the command's comment; 0 without one. */
  exit: number;
  /** Under a `$ ` line of a console block: the lines it shows the command printing. */
  output?: string[];
}

export interface DocPage {
  commands: DocCommand[];
  /** Blocks marked not-tested, with the reason given. */
  notTested: Array<{ line: number; why: string }>;
}

const SHELL_BLOCK = /^```(sh|bash|shell)\s*$/;
const CONSOLE_BLOCK = /^```console\s*$/;
const NOT_TESTED = /^<!--\s*not-tested:\s*(.+?)\s*-->\s*$/;
const SETUP = /^<!--\s*setup:\s*(.+?)\s*-->\s*$/;

/** README.md and every docs/*.md, relative to the repository root. */
export function documentationPages(root: string): string[] {
  const docs = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort();
  return ["README.md", ...docs.map((f) => join("docs", f))];
}

export function expectedExit(command: string): number {
  const match = /(?:^|\s)#\s*exit (\d+)\b/m.exec(command);
  return match ? Number(match[1]) : 0;
}

/** Whether the lines so far make whole shell commands (bash parses them), so a multi-line command is one command. */
function complete(text: string): boolean {
  return spawnSync("bash", ["-n"], { input: text, encoding: "utf8" }).status === 0;
}

export function parseDocPage(markdown: string): DocPage {
  const lines = markdown.split("\n");
  const page: DocPage = { commands: [], notTested: [] };
  let skipNext: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const setup = SETUP.exec(line);
    const notTested = NOT_TESTED.exec(line);
    if (setup) page.commands.push({ line: i + 1, command: setup[1]!, exit: expectedExit(setup[1]!) });
    else if (notTested) skipNext = notTested[1]!;
    else if (line.startsWith("```")) {
      const end = closingFence(lines, i);
      const body = lines.slice(i + 1, end);
      if (skipNext !== null) page.notTested.push({ line: i + 1, why: skipNext });
      else if (SHELL_BLOCK.test(line)) page.commands.push(...shellCommands(body, i + 2));
      else if (CONSOLE_BLOCK.test(line)) page.commands.push(...consoleCommands(body, i + 2));
      else if (line === "```" && body.some((l) => /^(\$ )?shipctl /.test(l))) {
        // A block of commands says whether it is run: sh or console; text for a synopsis or a transcript.
        throw new Error(`line ${i + 1}: a code block with shipctl commands needs a language: sh or console (run), or text`);
      }
      skipNext = null;
      i = end;
    } else if (line.trim() !== "") skipNext = null;
  }
  return page;
}

function closingFence(lines: string[], open: number): number {
  for (let i = open + 1; i < lines.length; i++) if (lines[i]!.startsWith("```")) return i;
  throw new Error(`line ${open + 1}: a code block that never closes`);
}

function shellCommands(body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  let pending: string[] = [];
  let start = 0;
  body.forEach((text, k) => {
    if (pending.length === 0) {
      if (text.trim() === "" || text.trim().startsWith("#")) return;
      start = firstLine + k;
    }
    pending.push(text);
    const command = pending.join("\n");
    if (!command.endsWith("\\") && complete(command)) {
      commands.push({ line: start, command, exit: expectedExit(command) });
      pending = [];
    }
  });
  if (pending.length > 0) throw new Error(`line ${start}: a command that does not end: ${pending.join("\n")}`);
  return commands;
}

function consoleCommands(body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  body.forEach((text, k) => {
    if (text.startsWith("$ ")) {
      const command = text.slice(2);
      commands.push({ line: firstLine + k, command, exit: expectedExit(command), output: [] });
    } else if (text.trim() !== "") {
      const current = commands.at(-1);
      if (!current) throw new Error(`line ${firstLine + k}: output shown before any "$ " command`);
      current.output!.push(text);
    }
  });
  return commands;
}

/**
 * Whether what a command printed shows each line the page shows, in order. Numbers stand for any number and runs of
 * spaces for any spacing, so ids, times and column widths may differ from the page's.
 */
export function showsOutput(printed: string, shown: string[]): boolean {
  const lines = printed.split("\n").map((l) => l.trimEnd());
  let at = 0;
  for (const expected of shown) {
    const pattern = new RegExp(
      "^" +
        expected
          .trimEnd()
          .split(/(\d+|\s+)/)
          .map((part) => (/^\d+$/.test(part) ? "\\d+" : /^\s+$/.test(part) ? "\\s+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("") +
        "$",
    );
    while (at < lines.length && !pattern.test(lines[at]!)) at++;
    if (at === lines.length) return false;
    at++;
  }
  return true;
}
