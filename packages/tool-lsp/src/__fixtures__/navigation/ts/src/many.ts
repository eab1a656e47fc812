import { scale } from "./shapes.js";

export function series1(): number[] {
  return [
    scale(1 + 0),
    scale(1 + 1),
    scale(1 + 2),
    scale(1 + 3),
    scale(1 + 4),
  ];
}

export function series2(): number[] {
  return [
    scale(2 + 0),
    scale(2 + 1),
    scale(2 + 2),
    scale(2 + 3),
    scale(2 + 4),
  ];
}

export function series3(): number[] {
  return [
    scale(3 + 0),
    scale(3 + 1),
    scale(3 + 2),
    scale(3 + 3),
    scale(3 + 4),
  ];
}

export function series4(): number[] {
  return [
    scale(4 + 0),
    scale(4 + 1),
    scale(4 + 2),
    scale(4 + 3),
    scale(4 + 4),
  ];
}

export function series5(): number[] {
  return [
    scale(5 + 0),
    scale(5 + 1),
    scale(5 + 2),
    scale(5 + 3),
    scale(5 + 4),
  ];
}

export function series6(): number[] {
  return [
    scale(6 + 0),
    scale(6 + 1),
    scale(6 + 2),
    scale(6 + 3),
    scale(6 + 4),
  ];
}

export function series7(): number[] {
  return [
    scale(7 + 0),
    scale(7 + 1),
    scale(7 + 2),
    scale(7 + 3),
    scale(7 + 4),
  ];
}

export function series8(): number[] {
  return [
    scale(8 + 0),
    scale(8 + 1),
    scale(8 + 2),
    scale(8 + 3),
    scale(8 + 4),
  ];
}

export function series9(): number[] {
  return [
    scale(9 + 0),
    scale(9 + 1),
    scale(9 + 2),
    scale(9 + 3),
    scale(9 + 4),
  ];
}

export function series10(): number[] {
  return [
    scale(10 + 0),
    scale(10 + 1),
    scale(10 + 2),
    scale(10 + 3),
    scale(10 + 4),
  ];
}

export function series11(): number[] {
  return [
    scale(11 + 0),
    scale(11 + 1),
    scale(11 + 2),
    scale(11 + 3),
    scale(11 + 4),
  ];
}

export function series12(): number[] {
  return [
    scale(12 + 0),
    scale(12 + 1),
    scale(12 + 2),
    scale(12 + 3),
    scale(12 + 4),
  ];
}
