export function add(a: number, b: number): number {
  return a + b;
}

export function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce(add, 0) / values.length;
}
