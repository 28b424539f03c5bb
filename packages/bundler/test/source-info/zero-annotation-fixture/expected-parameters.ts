import type { Manifest } from "@executa/core";

/** The parameters the fixture's DTO describes, read from its types alone: what both the bundle and an in-process run must show. */
export const PARAMETERS: Manifest["tools"][number]["parameters"] = [
  { name: "title", type: "string", description: "Title.", required: true },
  { name: "body", type: "string", required: false },
  {
    name: "location",
    type: "object",
    description: "Where it happens.",
    required: true,
    properties: {
      file: { type: "string", description: "Path of the file." },
      line: { type: "number", description: "optional" },
    },
  },
  {
    name: "labels",
    type: "array",
    description: "Labels to add.",
    required: false,
    default: [],
    items: {
      type: "object",
      properties: {
        name: { type: "string", description: "The label's name." },
        color: { type: "string", description: 'default "grey"; optional' },
      },
      required: ["name"],
    },
  },
  {
    name: "due",
    type: "string",
    description: "When it is due. (ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z)",
    required: false,
  },
];
