import { serve } from "@executa/decorators";
import { NotesSearch } from "./notes-search.js";

serve(NotesSearch);
