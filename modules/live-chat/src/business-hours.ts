/**
 * Business hours (spec 2, Live chat records: timezone, an IANA name, and one key per weekday
 * {enabled, start 'HH:MM', end 'HH:MM'}). Outside them the widget shows the offline message. The
 * sandbox has the ECMAScript Intl API, so the wall clock of the timezone is read with it; a window
 * whose end is before its start runs past midnight into the next day.
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type DayHours = { enabled: boolean; start?: string; end?: string };
export type BusinessHours = { timezone: string } & Partial<Record<Weekday, DayHours>>;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the timezone is one Intl knows. */
export function isTimezone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Weekday and minute of the day at `at` (ms) in the timezone. */
function wallClock(at: number, timezone: string): { day: Weekday; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: get('weekday').toLowerCase() as Weekday, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/** Whether the business is open at `at`; no business hours means always open. */
export function isOpen(hours: BusinessHours | null | undefined, at: number): boolean {
  if (!hours || !hours.timezone) return true;
  const { day, minute } = wallClock(at, hours.timezone);
  const today = hours[day];
  const yesterday = hours[WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]];
  const inside = (d: DayHours | undefined, m: number, part: 'same' | 'after-midnight') => {
    if (!d?.enabled || !d.start || !d.end) return false;
    const start = minutes(d.start);
    const end = minutes(d.end);
    if (start <= end) return part === 'same' && m >= start && m < end;
    return part === 'same' ? m >= start : m < end; // overnight window
  };
  return inside(today, minute, 'same') || inside(yesterday, minute, 'after-midnight');
}

/** Problems of a business hours object the schema cannot see (the timezone name, start before end). */
export function businessHoursProblem(hours: BusinessHours | null | undefined): string | null {
  if (!hours) return null;
  if (!isTimezone(hours.timezone)) return `Unknown timezone "${hours.timezone}": use an IANA name such as "Asia/Kolkata".`;
  for (const day of WEEKDAYS) {
    const d = hours[day];
    if (d?.enabled && (!d.start || !d.end)) return `${day} is enabled: give start and end as HH:MM.`;
    if (d?.enabled && d.start === d.end) return `${day}: start and end are the same time.`;
  }
  return null;
}
