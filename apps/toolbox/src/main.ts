import { serve } from "@executa/decorators";
import { Toolbox } from "./toolbox.js";

serve(Toolbox);
