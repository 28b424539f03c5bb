/**
 * `getWeather` → `get_weather`, `fetchHTTPStatus` → `fetch_http_status`, `v2Search` →
 * `v2_search`; names already in snake_case stay as they are.
 */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}
