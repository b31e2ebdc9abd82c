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
);
