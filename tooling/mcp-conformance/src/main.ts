// The fixture's entry: serve the decorated class (over HTTP with --mcp-http).
import { serve } from "@executa/decorators";
import { ConformanceFixture } from "./conformance-fixture.js";

serve(ConformanceFixture);
