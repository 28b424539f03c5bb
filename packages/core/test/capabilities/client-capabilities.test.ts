import { describe, expect, it } from "vitest";
import { clientCapabilitiesFor } from "../../src/server/negotiation.js";

describe("clientCapabilitiesFor", () => {
  it("announces only what host_capabilities declares", () => {
    expect(clientCapabilitiesFor([])).toEqual({});
    expect(clientCapabilitiesFor(["aps.files"])).toEqual({ storage: { files: true } });
    expect(clientCapabilitiesFor(["aps.kv", "llm.embed"])).toEqual({ storage: { kv: true }, embeddings: {} });
    expect(clientCapabilitiesFor(["llm.image.edit", "host.upload"])).toEqual({
      "image.edit": {},
      upload: {},
    });
    expect(clientCapabilitiesFor(["llm.agent.auto", "llm.sample", "aps.scope.user.read"])).toEqual({
      agent: { submodes: ["auto"] },
      sampling: {},
    });
  });
});
