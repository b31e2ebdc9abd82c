// A file inside a folder, for a message or a printed command: one separator throughout. The file part is a name
// shipctl builds with `/` (a photo's place in its report folder, "art/front.jpg"); on Windows, where the folder was
// typed with `\`, both are shown with `\` (path.win32.join), so a message never holds "C:\photos\7/art/front.jpg".
import { win32 } from "node:path";

export function displayPath(folder: string, file: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === "win32") return win32.join(folder, file);
  return `${folder.replace(/\/+$/, "")}/${file}`;
}
