import type { StorageScope } from "@executa/core";

/** The environment variable that picks the notebook's storage scope. */
export const SCOPE_VARIABLE = "NOTEBOOK_SCOPE";

/**
 * `user` by default: the notebook is a standalone tool, and the user's notes should
 * outlive any one plugin install. `tool` keeps them private to this plugin; `app` works
 * only when the plugin runs inside an app.
 */
export const DEFAULT_SCOPE: StorageScope = "user";

const SCOPES: readonly StorageScope[] = ["user", "tool", "app"];

/** The scope named by `NOTEBOOK_SCOPE`, or the default. Throws for any other value. */
export function scopeFromEnv(env: Record<string, string | undefined> = process.env): StorageScope {
  const value = env[SCOPE_VARIABLE]?.trim();
  if (value === undefined || value === "") return DEFAULT_SCOPE;
  if (!SCOPES.includes(value as StorageScope)) {
    throw new Error(`${SCOPE_VARIABLE}=${JSON.stringify(value)}: use one of ${SCOPES.join(", ")}`);
  }
  return value as StorageScope;
}
