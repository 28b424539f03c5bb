import { serve } from "@executa/decorators";
import { EveryForm } from "./plugin.js";

serve(EveryForm);
