/** Says hello to someone by name. */
export function greet(name: string): string {
  return `hello ${name}`;
}
