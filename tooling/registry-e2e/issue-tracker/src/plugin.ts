import { Args, currentContext, Plugin, Tool, ToolError } from "@executa/decorators";

/** A person issues are assigned to. */
export class Person {
  /** Their handle, e.g. "ada". */
  login!: string;
  /** Their display name. */
  name?: string;
}

/** A new issue. */
export class CreateIssueDto {
  /** A one-line title. */
  title!: string;
  /** The details, in Markdown. */
  body?: string;
  /** How urgent it is. */
  priority: "low" | "normal" | "high" = "normal";
  /** When it is due. */
  due?: Date;
  /** Who works on it. */
  assignee?: Person;
  /** Labels, e.g. "bug". */
  labels: string[] = [];
}

/** How the model triages an issue. */
export class Triage {
  /** The issue's category. */
  category!: "bug" | "feature" | "question";
  /** How urgent it is. */
  priority!: "low" | "normal" | "high";
  /** One sentence on why. */
  reason!: string;
}

interface StoredIssue {
  number: number;
  title: string;
  body: string | null;
  priority: string;
  state: "open" | "closed";
  due: string | null;
  assignee: string | null;
  labels: string[];
}

/** Tracks issues in the host's storage and reads them from the team's issue API. */
@Plugin({
  name: "issue-tracker",
  host_capabilities: ["aps.kv", "llm.sample"],
  credentials: [
    { name: "ISSUES_TOKEN", description: "API token for the issue API", required: true, sensitive: true },
    {
      name: "ISSUES_API_URL",
      description: "Base URL of the issue API",
      required: false,
      default: "https://issues.example.com/api",
    },
  ],
})
export class IssueTracker {
  /** Files a new issue. */
  @Tool()
  async createIssue(@Args() issue: CreateIssueDto) {
    const { storage } = currentContext().host;
    const counter = await storage.get("counter");
    const number = (typeof counter.value === "number" ? counter.value : 0) + 1;
    await storage.set("counter", number);
    const stored: StoredIssue = {
      number,
      title: issue.title,
      body: issue.body ?? null,
      priority: issue.priority,
      state: "open",
      due: issue.due ? issue.due.toISOString() : null,
      assignee: issue.assignee?.login ?? null,
      labels: issue.labels,
    };
    await storage.set(`issue:${number}`, stored);
    return stored;
  }

  /** Lists issues, newest first. */
  @Tool()
  async listIssues(
    /** Only issues in this state. */ state?: "open" | "closed",
    /** At most this many. */ limit = 20,
  ) {
    const { storage } = currentContext().host;
    const counter = await storage.get("counter");
    const last = typeof counter.value === "number" ? counter.value : 0;
    const issues: StoredIssue[] = [];
    for (let number = last; number >= 1 && issues.length < limit; number -= 1) {
      const entry = await storage.get(`issue:${number}`);
      const issue = entry.value as StoredIssue | undefined;
      if (issue && (state === undefined || issue.state === state)) issues.push(issue);
    }
    return { count: issues.length, issues };
  }

  /** Reads an issue from the team's issue API. */
  @Tool({ timeout: 10 })
  async fetchIssue(/** The issue number. */ number: number) {
    const ctx = currentContext();
    const base = ctx.credential("ISSUES_API_URL") ?? "https://issues.example.com/api";
    const response = await fetch(`${base}/issues/${number}`, {
      headers: { authorization: `Bearer ${ctx.credential("ISSUES_TOKEN")}` },
      signal: ctx.signal,
    });
    if (response.status === 404) throw new ToolError(`issue ${number} not found`);
    if (!response.ok) throw new ToolError(`the issue API answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  }

  /** Asks the model to triage a report. */
  @Tool({ timeout: 60 })
  async triage(/** The report to triage. */ text: string) {
    const { object, downgraded, attempts } = await currentContext().host.sampling.createObject(Triage, {
      messages: [{ role: "user", content: `Triage this issue report:\n\n${text}` }],
      retries: 1,
    });
    return { ...object, downgraded, attempts };
  }
}
