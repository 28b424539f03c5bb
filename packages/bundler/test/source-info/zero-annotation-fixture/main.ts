// A plugin whose only tool takes an undecorated DTO (`@Args()`), declared in another file.
import { Args, Plugin, serve, Tool } from "@executa/decorators";
import { CreateIssueDto } from "./dto.js";

/** Files issues. */
@Plugin({ name: "zero-annotation-fixture", version: "0.1.0" })
export class Issues {
  /** Files an issue. */
  @Tool()
  create(@Args() issue: CreateIssueDto) {
    return {
      isDto: issue instanceof CreateIssueDto,
      title: issue.title,
      location: issue.location,
      labels: issue.labels,
      due: issue.due instanceof Date ? issue.due.toISOString() : null,
    };
  }
}

serve(Issues);
