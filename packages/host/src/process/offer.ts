import { type ReverseFamilyName } from "@executa/core";
import { offeredCapabilities } from "@executa/core/internal";
import type { ProviderSet } from "../providers/provider.js";

/**
 * The `capabilities` an `initialize` request offers: the reverse-call families this
 * host has providers for, in the shape plugins announce theirs (`client_capabilities`).
 */
export function hostCapabilitiesOffer(providers: ProviderSet): Record<string, unknown> {
  const served = (Object.keys(providers) as ReverseFamilyName[]).filter((family) => providers[family]);
  return offeredCapabilities(served);
}
