// The floor of a start-up on commander, for bench/startup.mjs: a program that loads commander, declares a root with
// one command, and prints its help. bench/startup.mjs bundles it as shipctl is bundled (scripts/build-options.mjs:
// one ES module, minified, the same require banner), so its time beside bare node is what loading the user's chosen
// parser costs before shipctl does anything of its own.
import { Command } from "commander";

const program = new Command("floor").description("The floor of a start-up on commander.").version("0.0.0");
program.command("noun").description("One command, so the help lists a command as shipctl's does.");
await program.parseAsync(process.argv);
