import { serve } from "@executa/decorators";
import { Notebook } from "./notebook.js";
import { scopeFromEnv } from "./scope.js";

// NOTEBOOK_SCOPE (user | tool | app) picks the storage scope; user by default.
serve(Notebook, { factory: () => new Notebook({ scope: scopeFromEnv() }) });
