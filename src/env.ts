// A variable of the environment as shipctl reads its own and the proxy ones: blank is the same as unset.
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}
