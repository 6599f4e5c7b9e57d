/** Payout rounds on days of their own (issue 30's tests call the payout work with a time). */
const DAY_MS = 24 * 60 * 60 * 1000;

/** A clock of days to come: each call answers the next day at noon UTC, its own payout period. */
export function daysToCome(): () => Date {
  let day = 0;
  return () => {
    day += 1;
    const at = new Date(Date.now() + day * DAY_MS);
    at.setUTCHours(12, 0, 0, 0);
    return at;
  };
}
