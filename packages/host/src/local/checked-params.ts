import { RpcError } from "@executa/core";
import { reverseRoute, shapeCheckOf } from "@executa/core/internal";
import type { ProviderSet, ReverseCall, ReverseProvider } from "../providers/provider.js";

/**
 * `provider` behind the params schemas of core's capability-family table: a call of a
 * listed method whose params do not fit its row is answered with the family's
 * INVALID_REQUEST code, naming the field (`storage/list: limit must be ≥ 1, got 0`), and
 * never reaches the provider. The provider's own rules (key length, the models it has,
 * its caps) come after.
 */
export function withCheckedParams(provider: ReverseProvider): ReverseProvider {
  return {
    handle(call: ReverseCall): unknown {
      const route = reverseRoute(call.method);
      if (route?.spec) {
        const issue = shapeCheckOf(route.spec.params)(call.params);
        if (issue) {
          throw new RpcError(
            route.family.codes.INVALID_REQUEST,
            `${call.method}: ${issue.path || "params"} ${issue.problem}`,
            { path: issue.path },
          );
        }
      }
      return provider.handle(call);
    },
  };
}

/** Every provider of `providers` behind the table's params schemas. */
export function checkedProviders<P extends ProviderSet>(providers: P): P {
  const checked: ProviderSet = {};
  for (const [family, provider] of Object.entries(providers) as [keyof ProviderSet, ReverseProvider][]) {
    checked[family] = withCheckedParams(provider);
  }
  return checked as P;
}
