import { scale } from "../shapes.js";

export function total(values: number[]): number {
  return values.reduce((sum, value) => sum + scale(value), 0);
}
