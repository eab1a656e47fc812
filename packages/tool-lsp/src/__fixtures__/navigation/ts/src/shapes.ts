/** Anything with an area. */
export interface Shape {
  area(): number;
}

export interface Polygon extends Shape {
  sides(): number;
}

export type Unit = "cm" | "in";

export type Measure = (shape: Shape, unit: Unit) => number;

export class Square implements Polygon {
  constructor(private readonly side: number) {}

  area(): number {
    const raw = this.side * this.side;
    return scale(raw);
  }

  sides(): number {
    return 4;
  }
}

export function scale(value: number): number {
  const factor = 1;
  return value * factor;
}
