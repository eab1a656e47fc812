/** The `fraction` quantile (0.5 = median, 0.95 = p95) of `values`, linearly interpolated between the nearest ranks. */
export function percentile(values, fraction) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((first, second) => first - second);
  const rank = (sorted.length - 1) * fraction;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}
