import { RpcError, StorageErrorCode, type StorageScope } from "@executa/core";
import type { ReverseCallContext } from "../providers/provider.js";

export { STORAGE_SCOPES, type StorageScope } from "@executa/core";

/** A scope resolved to the namespace its data lives in. */
export interface ResolvedScope {
  scope: StorageScope;
  /** e.g. `user:local-user`, `app:local-user:my-app`, `tool:local-user:weather`. */
  namespace: string;
}

/**
 * Resolves `params.scope` for the invoke a call serves: `user` is the user's own drive,
 * `app` is shared by one app's installs for that user (granted only with an app id, as the
 * spec says), `tool` is private to (user × plugin).
 */
export function resolveScope(scope: StorageScope, context: ReverseCallContext): ResolvedScope {
  switch (scope) {
    case "user":
      return { scope, namespace: `user:${context.userId}` };
    case "tool":
      return { scope, namespace: `tool:${context.userId}:${context.pluginName}` };
    case "app":
      if (!context.appId) {
        throw new RpcError(
          StorageErrorCode.NOT_GRANTED,
          'scope "app" is granted only to a plugin running inside an app (no app id); use "user" or "tool"',
        );
      }
      return { scope, namespace: `app:${context.userId}:${context.appId}` };
  }
}
