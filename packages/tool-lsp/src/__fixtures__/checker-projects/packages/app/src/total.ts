export function total(prices: number[]): number {
  return prices.reduce((sum, price) => sum + price, 0);
}

export const label: string = total([1, 2]);
