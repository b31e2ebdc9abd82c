// The verbs of `shipctl report` (the noun itself is declared in ../index.ts).
import { reportUploadCommand } from "./report-upload.js";

export const verbs = [reportUploadCommand];
export const helpAfter = "\nRun `shipctl report upload --help` for folder layouts, checks and examples.\n";
