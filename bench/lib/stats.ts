/** The median of a few runs, and their spread, as the bench reports noisy figures. */

/** The middle value (of an even count, the upper of the two middle ones). */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export const spreadOf = (values: number[]) => ({
  min: Math.min(...values),
  max: Math.max(...values),
  runs: values.length,
});
