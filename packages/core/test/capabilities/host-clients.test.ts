import { describe, expect, it } from "vitest";
import * as familyClients from "../../src/capabilities/clients.js";
import { REVERSE_FAMILIES } from "../../src/wire/capability-families.js";
import { fakeHost } from "./helpers/fake-channel.js";

const clientClasses = new Map<string, unknown>(Object.entries(familyClients));

// `ctx.host` is derived: one client per family of the capability table, each an instance of
// the class `clients.ts` exports under the family's name.
describe("ctx.host", () => {
  it("has one client per family of the table, in table order, and nothing else", () => {
    const { host } = fakeHost();
    expect(Object.keys(host)).toEqual(REVERSE_FAMILIES.map((family) => family.name));
    expect(Object.isFrozen(host)).toBe(true);
  });

  it.each(REVERSE_FAMILIES.map((family) => family.name))("host.%s is the family's client class", (family) => {
    const { host } = fakeHost();
    const Client = clientClasses.get(`${family[0]!.toUpperCase()}${family.slice(1)}Client`);
    expect(Client).toBeTypeOf("function");
    expect(host[family]).toBeInstanceOf(Client as new (...args: never[]) => unknown);
  });

  it("gives each invoke its own clients", () => {
    expect(fakeHost().host.storage).not.toBe(fakeHost().host.storage);
  });
});
