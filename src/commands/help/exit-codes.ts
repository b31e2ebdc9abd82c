// `shipctl help exit-codes`: the exit-code table of errors.ts, with the --json error names under each code.
import { ERROR_CODE_TABLE, EXIT_CODE_TABLE } from "../../errors.js";

export function exitCodesText(): string {
  const lines = EXIT_CODE_TABLE.map(([code, text]) => {
    const names = errorCodesOf(code);
    return `  ${String(code).padStart(3)}  ${text}${names.length ? `\n       ${names.join(", ")}` : ""}`;
  });
  return (
    `Exit codes:\n${lines.join("\n")}\n\n` +
    'With --json a failure is on stdout too: {"error": {"code", "exit_code", "message", "hint", ...}}, with "code" one of\n' +
    "the names under its exit code above (docs/scripting.md: Errors as JSON).\n"
  );
}

/** `help exit-codes --json`: one entry per exit code. */
export function exitCodesJson(): Array<{ code: number; meaning: string; error_codes: string[] }> {
  return EXIT_CODE_TABLE.map(([code, meaning]) => ({ code, meaning, error_codes: errorCodesOf(code) }));
}

/** The --json error names (`code`) of an exit code. */
function errorCodesOf(exitCode: number): string[] {
  return ERROR_CODE_TABLE.filter(([, code]) => code === exitCode).map(([name]) => name);
}
