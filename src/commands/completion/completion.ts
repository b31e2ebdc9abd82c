// `shipctl completion bash|zsh|fish|powershell`: prints the shell's completion script (completion/shell-scripts.ts).
// The script calls the hidden `shipctl __complete` at each TAB (complete.ts), which walks this command tree.
import { Argument, Command } from "commander";
import { SHELLS, type Shell } from "../../completion/protocol.js";
import { verbAction, type CommandContext, type VerbRun } from "../action.js";

export interface CompletionOptions {
  shell: Shell;
}

export function completionCommand(ctx: CommandContext, run: VerbRun<CompletionOptions> = runCompletion, command = new Command("completion")): Command {
  command
    .description("print the shell completion script for bash, zsh, fish or PowerShell")
    .addArgument(new Argument("<shell>", "the shell to complete in").choices(SHELLS))
    .addHelpText(
      "after",
      `
Completes commands, flags and their values: shipment statuses, profile names, the services and countries of the
profile's tables (\`shipctl config tables\`), --set 1|2, --format, help topics. The script asks shipctl at each TAB,
and shipctl reads only its own commands and the local config, never the service: no need to regenerate the script
after an upgrade or a new table.

Install (once):
  bash        echo 'source <(shipctl completion bash)' >> ~/.bashrc
              or, with the bash-completion package, a file it loads on demand:
              shipctl completion bash > ~/.local/share/bash-completion/completions/shipctl
  zsh         shipctl completion zsh > "\${fpath[1]}/_shipctl"
              or a folder of your own: mkdir -p ~/.zfunc && shipctl completion zsh > ~/.zfunc/_shipctl, and in
              ~/.zshrc before compinit: fpath=(~/.zfunc $fpath); then: autoload -U compinit && compinit
  fish        shipctl completion fish > ~/.config/fish/completions/shipctl.fish
  PowerShell  Add-Content $PROFILE 'shipctl completion powershell | Out-String | Invoke-Expression'
Then open a new shell.

Examples:
  shipctl completion bash > ~/.local/share/bash-completion/completions/shipctl
  shipctl completion fish > ~/.config/fish/completions/shipctl.fish
`,
    );
  // commander has already refused a shell not in the list (its .choices()).
  return command.action(verbAction(ctx, (args) => ({ shell: args[0] as Shell }), run));
}

const runCompletion: VerbRun<CompletionOptions> = async (options, deps) => deps.io.out((await import("../../completion/shell-scripts.js")).SHELL_SCRIPTS[options.shell]);
