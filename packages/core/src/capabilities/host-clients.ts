import type { ReverseChannel } from "../context/reverse-channel.js";
import { REVERSE_FAMILIES, type ReverseFamilyName } from "../wire/capability-families.js";
import * as familyClients from "./clients.js";
import { HostCaller, type InvokeBinding } from "./host-call.js";

/** The name of a family's client class in `clients.ts`: `image` → `ImageClient`. */
type ClientClassName<Family extends ReverseFamilyName> = `${Capitalize<Family>}Client`;

/**
 * Typed clients for the host's reverse capabilities, bound to one invoke: one per family
 * of the capability table, under the family's name (`ctx.host.sampling`, `ctx.host.image`,
 * …). Every call carries that invoke's `context.invoke_id`, is bounded by its
 * deadline and aborted by its signal. Each needs its `host_capabilities` entry in the
 * manifest and a host that negotiated protocol 2.0; otherwise it fails locally, writing nothing.
 */
// An interface over the derived type, so the API reference lists each family's client.
export interface HostClients extends ClientPerFamily {}

/** The class `clients.ts` exports under each family's name, as an instance. */
type ClientPerFamily = {
  readonly [Family in ReverseFamilyName]: InstanceType<
    (typeof familyClients)[ClientClassName<Family> & keyof typeof familyClients]
  >;
};

/** Every family's client class by its name; a family of the table without one in `clients.ts` is a compile error. */
const CLIENT_CLASSES: {
  readonly [Family in ReverseFamilyName as ClientClassName<Family>]: new (
    caller: HostCaller,
  ) => HostClients[Family];
} = familyClients;

function clientClassName<Family extends ReverseFamilyName>(family: Family): ClientClassName<Family> {
  return `${family[0]!.toUpperCase()}${family.slice(1)}Client` as ClientClassName<Family>;
}

/** The client class of each family of the capability table, in table order. */
const CLIENTS = REVERSE_FAMILIES.map(
  (family) => [family.name, CLIENT_CLASSES[clientClassName(family.name)]] as const,
);

/** Builds the host clients of one invoke on the server's reverse channel. */
export function createHostClients(channel: ReverseChannel, invoke: InvokeBinding): HostClients {
  const caller = new HostCaller(channel, invoke);
  const clients = CLIENTS.map(([family, Client]) => [family, new Client(caller)]);
  return Object.freeze(Object.fromEntries(clients) as HostClients);
}
