/**
 * The admin's Overview range (issue 35, decision 056): whole UTC days from `from` to `to`, both
 * included, at most OVERVIEW_DAYS_MAX of them. Plain functions, no zod: the contract's query
 * schema reads a range with them, and the page checks a custom range with the same words before
 * it asks.
 */

/** At most a year (a leap year's too) in one range. */
export const OVERVIEW_DAYS_MAX = 366;
/** The range when the address names none: the last 30 days, today included. */
export const OVERVIEW_DAYS_DEFAULT = 30;
/** The presets the page offers, in days up to today. */
export const OVERVIEW_PRESETS = [7, 30, 90] as const;
/** How many models the busiest models list. */
export const OVERVIEW_MODELS_MAX = 10;

/** No day before the marketplace's data could start, none past the next century. */
const FIRST_DAY = '2000-01-01';
const LAST_DAY = '2099-12-31';
const DAY_MS = 24 * 60 * 60 * 1000;

/** '2026-11-27' of a moment, in UTC. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The day `n` days after `day` ('2026-11-27', -6 → '2026-11-21'). */
export const addDays = (day: string, n: number): string =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** Days from `from` to `to`, both included (1 for the same day). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The last `days` days up to `today`, as a range. */
export const lastDays = (days: number, today: string): OverviewRange => ({
  from: addDays(today, -(days - 1)),
  to: today,
});

export type OverviewRange = { from: string; to: string };
export type RangeProblem = { field: 'from' | 'to'; message: string };

/** Why `value` is not a calendar day the Overview can show, or null. */
function dayProblem(field: 'from' | 'to', value: string): RangeProblem | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
    return { field, message: `${field} must be a date written YYYY-MM-DD` };
  // 2026-02-30 parses as March 2nd: a real day reads back as itself.
  const parsed = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(parsed) || utcDay(new Date(parsed)) !== value)
    return { field, message: `${field} is not a day of the calendar` };
  if (value < FIRST_DAY || value > LAST_DAY)
    return { field, message: `${field} must be between ${FIRST_DAY} and ${LAST_DAY}` };
  return null;
}

/**
 * The range of an address's `from` and `to` (either may be missing: `to` is then today, `from`
 * the 30 days up to `to`), or the first problem with it.
 */
export function readOverviewRange(
  query: { from?: string | undefined; to?: string | undefined },
  today: string,
): OverviewRange | RangeProblem {
  const to = query.to ?? today;
  const toProblem = dayProblem('to', to);
  if (toProblem) return toProblem;
  const from = query.from ?? addDays(to, -(OVERVIEW_DAYS_DEFAULT - 1));
  const fromProblem = dayProblem('from', from);
  if (fromProblem) return fromProblem;
  if (from > to) return { field: 'from', message: 'from must not be after to' };
  if (daysBetween(from, to) > OVERVIEW_DAYS_MAX)
    return {
      field: 'to',
      message: `to must be at most ${OVERVIEW_DAYS_MAX} days from from, both included`,
    };
  return { from, to };
}

export const isRangeProblem = (r: OverviewRange | RangeProblem): r is RangeProblem =>
  'message' in r;
