/** Values for the `{{key}}` placeholders of a template. */
export type TemplateValues = Readonly<Record<string, string>>;

/**
 * Fills `{{key}}` placeholders. A placeholder without a value is an error, so a template
 * and the code that fills it cannot drift apart silently.
 */
export function renderTemplate(text: string, values: TemplateValues, origin: string): string {
  return text.replace(/\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template ${origin}: no value for {{${key}}}`);
    return value;
  });
}

/**
 * Where a template file goes: `.tmpl` dropped, and a leading `_` of the file or of any
 * folder turned into `.` (npm leaves `.gitignore` out of published packages, so the
 * template is `_gitignore.tmpl`; `_github/workflows/…` becomes `.github/workflows/…`).
 */
export function outputPath(templatePath: string): string {
  return templatePath
    .replace(/\.tmpl$/, "")
    .split("/")
    .map((part) => part.replace(/^_/, "."))
    .join("/");
}
