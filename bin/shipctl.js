#!/usr/bin/env node
const { main, systemDeps } = await import("../dist/main.js");
process.exitCode = await main(process.argv.slice(2), systemDeps());
