import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", URLSearchParams: "readonly", setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", Buffer: "readonly", AbortController: "readonly", AbortSignal: "readonly", TextDecoder: "readonly", TextEncoder: "readonly", structuredClone: "readonly", performance: "readonly", setImmediate: "readonly", queueMicrotask: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // main() returns an exit code; only bin/ sets process.exitCode. Nothing may end the process abruptly.
      "no-restricted-properties": ["error", { object: "process", property: "exit", message: "Return an exit code from main() instead." }],
    },
  },
  {
    files: ["src/**/*.ts"],
    rules: {
      // zod's named `z` is its whole namespace held as one value, so esbuild keeps all of zod (locales, JSON Schema
      // conversion) in the chunk nearly every command loads: 454 KB where `import * as z` needs 104 KB.
      "no-restricted-syntax": ["error", {
        selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > :matches(ImportSpecifier[imported.name='z'][importKind!='type'], ImportDefaultSpecifier)",
        message: "Write `import * as z from \"zod\"`: the bundle can then leave out the parts of zod no command uses.",
      }],
    },
  },
);
