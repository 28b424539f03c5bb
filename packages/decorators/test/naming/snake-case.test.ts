import { expect, test } from "vitest";
import { snakeCase } from "../../src/naming/snake-case.js";

test.each([
  ["getWeather", "get_weather"],
  ["get_weather", "get_weather"],
  ["fetchHTTPStatus", "fetch_http_status"],
  ["parseURL", "parse_url"],
  ["v2Search", "v2_search"],
  ["search2Items", "search2_items"],
  ["run", "run"],
  ["HTMLToText", "html_to_text"],
  ["$private", "private"],
])("%s → %s", (input, expected) => {
  expect(snakeCase(input)).toBe(expected);
});
