// The issue's zero-annotation DTOs: no decorator in this file at all (nor any `at` sign),
// so only their types and doc comments say what the arguments are.

/** Where in the code the issue is. */
export class SourceLocation {
  /** Path of the file. */
  file!: string;
  line?: number;
}

export class IssueLabel {
  /** The label's name. */
  name!: string;
  color = "grey";
}

export class CreateIssueDto {
  /** Title. */
  title!: string;
  body?: string;
  /** Where it happens. */
  location!: SourceLocation;
  /** Labels to add. */
  labels: IssueLabel[] = [];
  /** When it is due. */
  due?: Date;
}
