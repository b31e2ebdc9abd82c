// The scripts `shipctl completion <shell>` prints. Each is a small function that, at every TAB, runs
// `shipctl __complete` with the words typed so far (protocol.ts) and hands the answer to the shell: the commands,
// flags and values come from shipctl itself at that moment, so a script installed once stays right after an upgrade
// or a new table. They need nothing beyond the shell: bash's needs no bash-completion package (`complete -F` alone).
import { COMPLETE_COMMAND, type Shell } from "./protocol.js";
import { WINDOWS_BARE_WORD } from "../output/shell-quote.js";

const HEADER = (shell: Shell, load: string) => `# ${shell} completion for shipctl (\`shipctl completion ${shell}\`).
# Load it with: ${load}
# At each TAB it asks \`shipctl ${COMPLETE_COMMAND}\`, which reads only shipctl's commands and the local config.
`;

// Values are quoted with printf %q (White\ Glove, \;); file names are offered only when shipctl knows nothing better.
// COMP_WORDS holds the words as typed, backslashes included: after a first TAB has put id\,status on the line, a
// second TAB must ask shipctl about id,status (read without -r drops the backslashes), or it quotes the quoting again.
// A word begun with a quote ("White G, 'Rock) is asked about without it, and its values are handed back as they are:
// readline then quotes each inside that quote itself (-o filenames), as it does for file names.
const BASH = `${HEADER("bash", "source <(shipctl completion bash)")}
_shipctl_complete() {
    local cur=\${COMP_WORDS[COMP_CWORD]} tab=$'\\t' out line word directive=:nofiles quoted=
    local -a words=()
    COMPREPLY=()
    for word in "\${COMP_WORDS[@]:1:COMP_CWORD}"; do
        IFS= read word <<< "$word"
        words+=("$word")
    done
    case $cur in
        \\'*) quoted=1 words[\${#words[@]}-1]=\${cur:1} ;;
        \\"*) quoted=1 words[\${#words[@]}-1]=\${word:1} ;;
    esac
    out=$(command shipctl ${COMPLETE_COMMAND} "\${words[@]}" 2>/dev/null) || return 0
    while IFS= read -r line; do
        case $line in
            :files | :nofiles) directive=$line ;;
            ?*) if [[ -n $quoted ]]; then COMPREPLY+=("\${line%%$tab*}"); else COMPREPLY+=("$(printf '%q' "\${line%%$tab*}")"); fi ;;
        esac
    done <<< "$out"
    [[ -n $quoted && \${#COMPREPLY[@]} -gt 0 ]] && compopt -o filenames 2>/dev/null
    if [[ \${#COMPREPLY[@]} -eq 0 && $directive == :files ]]; then
        compopt -o filenames 2>/dev/null
        while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
    fi
    return 0
}
complete -F _shipctl_complete shipctl
`;

// Works both ways zsh loads it: from a file _shipctl on $fpath (autoloaded, then run), or sourced (compdef).
// The word being completed is $PREFIX, which zsh gives without the quote it was begun with ("White G is White G);
// $words[CURRENT] keeps the quote, and nothing matched it.
const ZSH = `#compdef shipctl
${HEADER("zsh", 'shipctl completion zsh > "${fpath[1]}/_shipctl"   (or source <(shipctl completion zsh) after compinit)')}
_shipctl() {
    local out line value desc directive=:nofiles
    local -a candidates
    out=$(command shipctl ${COMPLETE_COMMAND} "\${(@Q)words[2,CURRENT-1]}" "\${(Q)PREFIX}" 2>/dev/null) || return 1
    for line in "\${(@f)out}"; do
        case $line in
            (:files|:nofiles) directive=$line ;;
            (?*) value=\${line%%$'\\t'*}
                desc=\${line#*$'\\t'}
                [[ $desc == "$line" ]] && desc=
                candidates+=("\${value//:/\\\\:}\${desc:+:$desc}") ;;
        esac
    done
    if (( \${#candidates} )); then
        _describe -t shipctl shipctl candidates
    elif [[ $directive == :files ]]; then
        _files
    fi
}
if [[ $funcstack[1] == _shipctl ]]; then _shipctl "$@"; else compdef _shipctl shipctl; fi
`;

// commandline -ct is the word as typed (White\\ G, "White G, my\\ photos/): shipctl and __fish_complete_path are handed
// it unescaped, as the earlier words (-o) are, or nothing matches after a space.
const FISH = `${HEADER("fish", "shipctl completion fish > ~/.config/fish/completions/shipctl.fish")}
function __shipctl_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct | string unescape)
    set -l out (command shipctl ${COMPLETE_COMMAND} $tokens[2..-1] "$current" 2>/dev/null)
    test (count $out) -gt 0; or return
    set -l directive $out[-1]
    set -e out[-1]
    if test (count $out) -eq 0; and test "$directive" = :files
        __fish_complete_path "$current"
        return
    end
    printf '%s\\n' $out
end
complete -c shipctl -f -a '(__shipctl_complete)'
`;

// A value is inserted quoted unless it is a bare word as printed commands write them (shell-quote.ts): unquoted, a
// comma makes an array (--fields id,status reached shipctl as two words), a $ a variable, a ' an open string.
// Windows PowerShell and PowerShell before 7.3 (or with Legacy argument passing) drop an empty argument given to a
// program; '""' reaches it as one.
const POWERSHELL = `${HEADER("powershell", "shipctl completion powershell | Out-String | Invoke-Expression   (in $PROFILE)")}
Register-ArgumentCompleter -Native -CommandName shipctl -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | Select-Object -Skip 1 |
        Where-Object { $_.Extent.EndOffset -le $cursorPosition } | ForEach-Object { $_.Extent.Text })
    if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }
    $current = $wordToComplete
    $v = $PSVersionTable.PSVersion
    if ($current -eq '' -and ($v.Major -lt 7 -or ($v.Major -eq 7 -and $v.Minor -lt 3) -or $PSNativeCommandArgumentPassing -eq 'Legacy')) {
        $current = '""'
    }
    $out = @(& shipctl ${COMPLETE_COMMAND} @words $current 2>$null)
    if ($out.Count -eq 0) { return }
    $directive = $out[-1]
    $results = @($out | Select-Object -SkipLast 1 | Where-Object { $_ -ne '' } | ForEach-Object {
        $value, $desc = $_ -split "\`t", 2
        if (-not $desc) { $desc = $value }
        $text = if ($value -notmatch '${WINDOWS_BARE_WORD.source}') { "'" + ($value -replace "['\\u2018-\\u201B]", '$0$0') + "'" } else { $value }
        [System.Management.Automation.CompletionResult]::new($text, $value, 'ParameterValue', $desc)
    })
    # An empty string keeps PowerShell from offering file names where shipctl says they make no sense.
    if ($results.Count -eq 0 -and $directive -eq ':nofiles') { return '' }
    $results
}
`;

export const SHELL_SCRIPTS: Readonly<Record<Shell, string>> = { bash: BASH, zsh: ZSH, fish: FISH, powershell: POWERSHELL };
