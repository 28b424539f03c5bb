import { recordSourceInfo } from "@executa/core/internal";
import { manifestOf, Plugin, Tool } from "@executa/decorators";
import { describe, expect, it } from "vitest";
import { startupError } from "../helpers/startup-error.js";

// One version: without `@Plugin({ version })` the manifest takes the package.json version
// the bundler's source reader recorded for the class.

describe("the plugin's version", () => {
  it("is package.json's when @Plugin gives none", () => {
    @Plugin({ name: "versioned", description: "Versioned." })
    class Versioned {
      @Tool({ description: "Pings." })
      ping() {
        return {};
      }
    }
    recordSourceInfo(Versioned, { packageVersion: "2.3.4" });
    expect(manifestOf(Versioned).version).toBe("2.3.4");
  });

  it("is the option's when given (the build refuses a package.json that says otherwise)", () => {
    @Plugin({ name: "versioned", version: "1.0.0", description: "Versioned." })
    class Versioned {
      @Tool({ description: "Pings." })
      ping() {
        return {};
      }
    }
    recordSourceInfo(Versioned, { packageVersion: "2.3.4" });
    expect(manifestOf(Versioned).version).toBe("1.0.0");
  });

  it("is refused when neither gives one, with both ways to fix it", () => {
    @Plugin({ name: "unversioned", description: "Unversioned." })
    class Unversioned {
      @Tool({ description: "Pings." })
      ping() {
        return {};
      }
    }
    // This test file went through the source reader too: forget what it recorded.
    recordSourceInfo(Unversioned, {});
    const error = startupError(Unversioned);
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain("the plugin has no version");
    expect(error.message).toContain('set "version" in package.json');
  });
});
