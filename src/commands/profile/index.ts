// The verbs of `shipctl profile` (the noun itself is declared in ../index.ts).
import { profileListCommand } from "./list.js";
import { profileUseCommand } from "./use.js";
import { profileRemoveCommand } from "./remove.js";

export const verbs = [profileListCommand, profileUseCommand, profileRemoveCommand];
export const helpAfter = `
A profile is a saved base URL and token (with the service's tables): \`shipctl login --profile NAME\` creates one.
The profile a run uses: --profile NAME > SHIPCTL_PROFILE > the current profile (\`profile use\`) > "default".

Examples:
  shipctl profile list
  shipctl profile use staging
  shipctl profile remove old-staging --yes
`;
