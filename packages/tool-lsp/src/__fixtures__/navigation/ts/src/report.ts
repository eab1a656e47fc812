import { scale, Square, type Shape } from "./shapes.js";

export function describe(shape: Shape): string {
  return `area ${scale(shape.area())}`;
}

export function report(): string[] {
  const square = new Square(2);
  return [describe(square), String(scale(3))];
}
