import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The built entries, as users load them: `@executa/core`, `@executa/core/internal` and
// `@executa/core/capabilities`, in both formats. They must share their modules, or a class from one entry fails
// `instanceof` in the other and the current-invoke store splits in two.
const dist = new URL("../../dist/", import.meta.url);
const require = createRequire(dist);

interface Entries {
  readonly format: string;
  readonly load: () => Promise<{
    publicEntry: typeof import("../../src/index.js");
    internalEntry: typeof import("../../src/internal.js");
    capabilitiesEntry: typeof import("../../src/capabilities.js");
  }>;
}

const formats: Entries[] = [
  {
    format: "ESM",
    load: async () => ({
      publicEntry: await import(new URL("index.js", dist).href),
      internalEntry: await import(new URL("internal.js", dist).href),
      capabilitiesEntry: await import(new URL("capabilities.js", dist).href),
    }),
  },
  {
    format: "CommonJS",
    load: async () => ({
      publicEntry: require("./index.cjs"),
      internalEntry: require("./internal.cjs"),
      capabilitiesEntry: require("./capabilities.cjs"),
    }),
  },
];

describe.each(formats)("the $format entries", ({ load }) => {
  it("share classes: an error made through the internal entry is an instance of the public class", async () => {
    const { publicEntry, internalEntry } = await load();
    expect(internalEntry.argumentsTooDeepError()).toBeInstanceOf(publicEntry.InvalidParamsError);
    expect(internalEntry.argumentsTooDeepError()).toBeInstanceOf(publicEntry.RpcError);
  });

  it("share the current invoke: runWithInvoke (internal) sets what currentInvoke (public) reads", async () => {
    const { publicEntry, internalEntry } = await load();
    const context = internalEntry.createInvokeContext({
      tool: "echo",
      invokeId: "invoke-1",
      deadlineMs: Date.now() + 60_000,
      signal: new AbortController().signal,
      wire: {},
      declaredCredentials: [],
      log: publicEntry.createLogger("test"),
      channel: {
        request: () => Promise.reject(new Error("no host")),
        protocolVersion: () => "2.0",
        hostCapabilities: [],
      },
    });
    expect(publicEntry.currentInvoke()).toBeUndefined();
    expect(internalEntry.runWithInvoke(context, () => publicEntry.currentInvoke())).toBe(context);
  });

  it("the capabilities entry is the public entry's capability layer, the same objects", async () => {
    const { publicEntry, capabilitiesEntry } = await load();
    const names = Object.keys(capabilitiesEntry);
    for (const name of ["SamplingClient", "StorageError", "AgentSessions", "display", "STORAGE_SCOPES"])
      expect(names).toContain(name);
    for (const name of names)
      expect(capabilitiesEntry[name as keyof typeof capabilitiesEntry]).toBe(
        publicEntry[name as keyof typeof publicEntry],
      );
    for (const name of ["serve", "JsonRpcPeer", "RpcError", "CAPABILITY_FAMILIES"])
      expect(capabilitiesEntry).not.toHaveProperty(name);
  });

  it("keep the toolkit's internals out of the public entry", async () => {
    const { publicEntry, internalEntry } = await load();
    for (const name of ["JsonRpcPeer", "LineReader", "runWithInvoke", "refusalCode"]) {
      expect(internalEntry).toHaveProperty(name);
      expect(publicEntry).not.toHaveProperty(name);
    }
  });
});
