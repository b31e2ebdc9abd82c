#!/usr/bin/env node
import { main, systemDeps } from "../dist/main.js";
process.exitCode = await main(process.argv.slice(2), systemDeps());
