/** Says hello to someone by name. */
export function greet(name: string): string {
  return `hello ${name}`;
}

export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(private readonly side: number) {}
  area(): number {
    return this.side * this.side;
  }
}
