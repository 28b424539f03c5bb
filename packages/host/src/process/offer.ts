import type { ProviderSet } from "../providers/provider.js";

/**
 * The `capabilities` an `initialize` request offers: the reverse-call families this
 * host has providers for, in the shape plugins announce theirs (`client_capabilities`).
 */
export function hostCapabilitiesOffer(providers: ProviderSet): Record<string, unknown> {
  const offer: Record<string, unknown> = {};
  if (providers.sampling) offer.sampling = {};
  if (providers.storage || providers.files)
    offer.storage = { kv: !!providers.storage, files: !!providers.files };
  if (providers.upload) offer.upload = {};
  if (providers.image) offer.image = {};
  if (providers.embeddings) offer.embeddings = {};
  if (providers.agent) offer.agent = {};
  return offer;
}
