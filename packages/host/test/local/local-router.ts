import { FAMILY_GRANTS } from "@executa/core/internal";
import type { ProviderSet } from "../../src/providers/provider.js";
import { InvokeRegistry } from "../../src/routing/invoke-registry.js";
import { ReverseRouter } from "../../src/routing/reverse-router.js";

/** Every capability the local host grants, as a manifest would declare them. */
export const ALL_CAPABILITIES = FAMILY_GRANTS;

/**
 * Drives providers through the host's real reverse router, with active invokes: `send`
 * makes a reverse call for `invokeId` as a plugin's frame would reach the host.
 */
export function localRouter(providers: ProviderSet, declared: readonly string[] = ALL_CAPABILITIES) {
  const registry = new InvokeRegistry();
  const router = new ReverseRouter({
    providers,
    registry,
    state: () => ({
      protocolVersion: "2.0",
      declaredCapabilities: declared,
      grantedCapabilities: undefined,
      pluginName: "demo",
      userId: "me",
      appId: undefined,
    }),
  });
  const send = async (method: string, params: Record<string, unknown> = {}, invokeId = "inv-1") => {
    if (!registry.has(invokeId)) registry.add(invokeId, "tool", Date.now() + 60_000);
    return (await router.handle({
      id: "r",
      method,
      params: { ...params, context: { invoke_id: invokeId } },
    })) as Record<
      string,
      // biome-ignore lint/suspicious/noExplicitAny: results are inspected freely in tests
      any
    >;
  };
  return { registry, router, send, endInvoke: (invokeId: string) => registry.remove(invokeId) };
}
