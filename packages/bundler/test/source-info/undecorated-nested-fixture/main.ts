// Serves the fixture on stdio.
import { serve } from "@executa/decorators";
import { Expenses } from "./plugin.js";

serve(Expenses);
