import { CHECK_GROUP_IDS, runConformance } from "@executa/host";
import { describe, expect, it } from "vitest";
import { fixture } from "../helpers/cli.js";

// `executa check` judges manifests with core's validateManifest: the rules the decorators
// apply to @Plugin options, so a name one refuses the other refuses too.
describe("executa check applies core's manifest rules", () => {
  it("fails a plugin name that starts with a digit", async () => {
    const report = await runConformance(process.execPath, [fixture("digit-first-name.mjs")], {
      skip: CHECK_GROUP_IDS.filter((id) => id !== "handshake"),
    });
    const manifest = report.checks.find((check) => check.id === "manifest")!;
    expect(manifest.status).toBe("FAIL");
    expect(manifest.reason).toBe(
      'name: "2fa-helper" is not a lowercase kebab/snake label starting with a letter (e.g. "my-tool")',
    );
  });
});
