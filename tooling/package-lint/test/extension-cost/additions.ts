/**
 * Throwaway additions to the toolkit, written as an author of this codebase would make
 * them: every file an addition touches, with what it adds. `create` copies a file of this
 * folder; an insert adds lines after (or `before`) the first line holding `anchor`.
 */
export type Edit =
  | { readonly file: string; readonly create: string }
  | {
      readonly file: string;
      readonly anchor: string;
      readonly insert: readonly string[];
      readonly before?: boolean;
    };

export interface Addition {
  readonly edits: readonly Edit[];
  /** The files that only register the addition with a table of another layer. */
  readonly registrations: readonly string[];
}

/** A runtime that cannot build anything yet: its module and its line in the runtime table. */
export const RUNTIME: Addition = {
  edits: [
    { file: "packages/bundler/src/runtime/probe.ts", create: "probe-runtime.ts.txt" },
    {
      file: "packages/bundler/src/runtime/runtime-table.ts",
      anchor: 'from "./node-sea.js";',
      insert: ['export { probeRuntime as probe } from "./probe.js";'],
    },
  ],
  registrations: [],
};

const FAMILY_CLIENTS = "packages/core/src/capabilities/clients.ts";
const LOCAL_PROVIDERS = "packages/host/src/local/create-local-providers.ts";

/**
 * `speech/synthesize` (`llm.speech`): table row, client, local provider, test, and the
 * client's and the provider's registrations (`ctx.host.speech`, core's and the decorators'
 * exports and the manifest checks follow from those).
 */
export const FAMILY: Addition = {
  edits: [
    {
      file: "packages/core/src/wire/capability-families.ts",
      anchor: "} as const satisfies { readonly [name: string]: ReverseFamily<string> };",
      before: true,
      insert: [
        "  speech: {",
        '    name: "speech",',
        '    namespaces: ["speech"],',
        "    methods: {",
        '      "speech/synthesize": {',
        '        capability: "llm.speech",',
        "        timeoutMs: 30_000,",
        '        params: { type: "object", properties: { text: { type: "string", minLength: 1 } }, required: ["text"] },',
        '        result: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },',
        "      },",
        "    },",
        '    capability: "llm.speech",',
        '    grants: [{ capability: "llm.speech", announce: { key: "speech" } }],',
        '    offer: { key: "speech" },',
        "    codes: {",
        "      NOT_GRANTED: -32701,",
        "      QUOTA_EXCEEDED: -32702,",
        "      PROVIDER_ERROR: -32703,",
        "      INVALID_REQUEST: -32704,",
        "      TIMEOUT: -32705,",
        "      NOT_NEGOTIATED: -32707,",
        "    },",
        "  },",
      ],
    },
    { file: "packages/core/src/capabilities/speech.ts", create: "speech-client.ts.txt" },
    {
      file: FAMILY_CLIENTS,
      anchor: 'from "./sampling.js";',
      insert: ['export { SpeechClient, SpeechError } from "./speech.js";'],
    },
    { file: "packages/host/src/local/speech/speech-provider.ts", create: "speech-provider.ts.txt" },
    {
      file: LOCAL_PROVIDERS,
      anchor: 'from "./sampling/sampling-provider.js";',
      insert: ['import { SpeechProvider } from "./speech/speech-provider.js";'],
    },
    {
      file: LOCAL_PROVIDERS,
      anchor: "    agent: new AgentProvider(",
      insert: ["    speech: new SpeechProvider(),"],
    },
    { file: "packages/host/test/local/speech-provider.test.ts", create: "speech-provider.test.ts.txt" },
  ],
  registrations: [FAMILY_CLIENTS, LOCAL_PROVIDERS],
};

const TYPE_TABLE = "packages/core/src/manifest/parameter-types/index.ts";

/** `null`, a parameter type whose only value is null: its module, its import and entry in the type table. */
export const PARAMETER_TYPE: Addition = {
  edits: [
    { file: "packages/core/src/manifest/parameter-types/null.ts", create: "null-type.ts.txt" },
    { file: TYPE_TABLE, anchor: 'from "./object.js";', insert: ['import { nullType } from "./null.js";'] },
    { file: TYPE_TABLE, anchor: "  objectType,", insert: ["  nullType,"] },
  ],
  registrations: [],
};
