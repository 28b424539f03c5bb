// The plugin's entry: serve the decorated class on stdin/stdout.
import { serve } from "@executa/decorators";
import { Weather } from "./weather-plugin.js";

serve(Weather);
