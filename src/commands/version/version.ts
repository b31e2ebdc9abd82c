// `shipctl version`: this build and what runs it, for bug reports and scripts. `shipctl --version` stays the bare
// version (scripts compare it); `--version --json` prints the same document as `version --json` (main.ts answers it).
import { Command } from "commander";
import type { Deps } from "../../deps.js";
import { printJson } from "../../output/json.js";
import { buildInfo, versionLine } from "../../version/build-info.js";
import { noOptions, verbAction, type CommandContext, type NoOptions, type VerbRun } from "../action.js";

export function versionCommand(ctx: CommandContext, run: VerbRun<NoOptions> = runVersion, command = new Command("version")): Command {
  command
    .description("show the version, the commit and date it was built from, and the Node and platform running it")
    .addHelpText(
      "after",
      `
Prints one line, e.g.
  shipctl 0.1.0 (abc1234, built 2026-11-25) node v20.19.0 linux-x64
"commit unknown" when shipctl was not built in a git checkout (an npm package); "-dirty" after the commit when the
checkout it was built in had changes. The build date follows SOURCE_DATE_EPOCH when the build had it.

With --json (also \`shipctl --version --json\`): {"version", "commit", "build_date", "node_version", "platform", "arch"},
commit null when unknown. \`shipctl --version\` alone prints only the version.

Examples:
  shipctl version
  shipctl version --json | jq -r .commit
`,
    );
  // Nothing to read: commander refuses any argument (exit 2), and --json is a global flag.
  return command.action(verbAction(ctx, noOptions, run));
}

async function runVersion(_options: NoOptions, deps: Deps): Promise<void> {
  const info = buildInfo();
  if (deps.globals.json) printJson(deps.io, info);
  else deps.io.out(versionLine(info));
}
