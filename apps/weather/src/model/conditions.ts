/** A weather condition in words, with an icon for display cards. */
export interface Condition {
  text: string;
  icon: string;
}

/**
 * WMO weather interpretation codes (WW), the `weather_code` Open-Meteo reports, as listed
 * in Open-Meteo's forecast API documentation.
 */
const WMO: Readonly<Record<number, Condition>> = {
  0: { text: "Clear sky", icon: "☀️" },
  1: { text: "Mainly clear", icon: "🌤️" },
  2: { text: "Partly cloudy", icon: "⛅" },
  3: { text: "Overcast", icon: "☁️" },
  45: { text: "Fog", icon: "🌫️" },
  48: { text: "Depositing rime fog", icon: "🌫️" },
  51: { text: "Light drizzle", icon: "🌦️" },
  53: { text: "Moderate drizzle", icon: "🌦️" },
  55: { text: "Dense drizzle", icon: "🌧️" },
  56: { text: "Light freezing drizzle", icon: "🌧️" },
  57: { text: "Dense freezing drizzle", icon: "🌧️" },
  61: { text: "Slight rain", icon: "🌦️" },
  63: { text: "Moderate rain", icon: "🌧️" },
  65: { text: "Heavy rain", icon: "🌧️" },
  66: { text: "Light freezing rain", icon: "🌧️" },
  67: { text: "Heavy freezing rain", icon: "🌧️" },
  71: { text: "Slight snowfall", icon: "🌨️" },
  73: { text: "Moderate snowfall", icon: "🌨️" },
  75: { text: "Heavy snowfall", icon: "❄️" },
  77: { text: "Snow grains", icon: "🌨️" },
  80: { text: "Slight rain showers", icon: "🌦️" },
  81: { text: "Moderate rain showers", icon: "🌧️" },
  82: { text: "Violent rain showers", icon: "🌧️" },
  85: { text: "Slight snow showers", icon: "🌨️" },
  86: { text: "Heavy snow showers", icon: "❄️" },
  95: { text: "Thunderstorm", icon: "⛈️" },
  96: { text: "Thunderstorm with slight hail", icon: "⛈️" },
  99: { text: "Thunderstorm with heavy hail", icon: "⛈️" },
};

/** The condition of a WMO code; an unknown code is named rather than guessed. */
export function wmoCondition(code: number): Condition {
  return WMO[code] ?? { text: `Weather code ${code}`, icon: "🌡️" };
}

/**
 * An OpenWeatherMap condition (`weather[0]`): its own description, capitalised, and an
 * icon chosen by the id's group (2xx thunderstorm, 3xx drizzle, 5xx rain, 6xx snow,
 * 7xx atmosphere, 800 clear, 80x clouds).
 */
export function owmCondition(id: number, description: string | undefined): Condition {
  const text = description ? description.charAt(0).toUpperCase() + description.slice(1) : `Condition ${id}`;
  return { text, icon: owmIcon(id) };
}

/** Icons of single OpenWeatherMap ids that differ from their group's. */
const OWM_ID_ICONS: Readonly<Record<number, string>> = {
  // 500 light rain and 520 light shower rain look like WMO's slight rain.
  500: "🌦️",
  520: "🌦️",
  800: "☀️",
  801: "🌤️",
  802: "⛅",
};

/** Icons of OpenWeatherMap id groups (the hundreds digit); 8xx beyond 802 is overcast. */
const OWM_GROUP_ICONS: Readonly<Record<number, string>> = {
  2: "⛈️",
  3: "🌦️",
  5: "🌧️",
  6: "🌨️",
  7: "🌫️",
  8: "☁️",
};

function owmIcon(id: number): string {
  return OWM_ID_ICONS[id] ?? OWM_GROUP_ICONS[Math.floor(id / 100)] ?? "🌡️";
}

const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;

/** The 8-point compass direction of a wind direction in degrees (where the wind comes from). */
export function compassPoint(degrees: number): string {
  const index = Math.round((((degrees % 360) + 360) % 360) / 45) % COMPASS.length;
  return COMPASS[index]!;
}
