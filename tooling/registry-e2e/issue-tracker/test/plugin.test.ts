import { expectInvalidParams, expectSuccess, type PluginTestClient, runInProcess } from "@executa/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IssueTracker } from "../src/plugin.js";

const TRIAGE = { category: "bug", priority: "high", reason: "Checkout is down for everyone." };

let plugin: PluginTestClient;
beforeEach(async () => {
  plugin = await runInProcess(IssueTracker, {
    credentials: { ISSUES_TOKEN: "t0ken" },
    fixtures: [
      {
        ns: "llm",
        method: "complete",
        match: { promptIncludes: "checkout" },
        result: {
          role: "assistant",
          content: { type: "text", text: JSON.stringify(TRIAGE) },
          model: "fixture-model",
          stopReason: "endTurn",
        },
      },
    ],
  });
});
afterEach(() => plugin.close());

describe("issue-tracker", () => {
  it("describes the DTO's fields, nested ones included, from the types", () => {
    const create = plugin.manifest?.tools.find((tool) => tool.name === "create_issue");
    const parameters = create?.parameters ?? [];
    const names = parameters.map((parameter) => parameter.name);
    expect(names).toEqual(["title", "body", "priority", "due", "assignee", "labels"]);
    const priority = parameters.find((parameter) => parameter.name === "priority");
    expect(priority).toMatchObject({ type: "string", enum: ["low", "normal", "high"], required: false });
    const assignee = parameters.find((parameter) => parameter.name === "assignee");
    expect(assignee?.properties?.login).toMatchObject({ type: "string" });
  });

  it("creates and lists issues in the host's storage", async () => {
    const created = expectSuccess(
      await plugin.invoke<{ number: number; due: string }>("create_issue", {
        title: "Checkout fails",
        priority: "high",
        due: "2027-01-15T12:00:00Z",
        assignee: { login: "ada" },
        labels: ["bug"],
      }),
    );
    expect(created).toMatchObject({ number: 1, due: "2027-01-15T12:00:00.000Z" });
    const listed = expectSuccess(await plugin.invoke<{ count: number }>("list_issues", { state: "open" }));
    expect(listed.count).toBe(1);
  });

  it("triages with structured sampling", async () => {
    const triage = expectSuccess(await plugin.invoke("triage", { text: "The checkout page is down." }));
    expect(triage).toMatchObject({ ...TRIAGE, attempts: 1 });
  });

  it("rejects a priority outside the enum with -32602", async () => {
    await expectInvalidParams(plugin.invoke("create_issue", { title: "x", priority: "urgent" }), [
      "priority",
    ]);
  });
});
