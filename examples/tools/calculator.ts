import { z } from 'zod';
import { defineTool } from '../../src/index.js';

/**
 * Evaluates + - * / % ^ and parentheses over decimal numbers with a small recursive-descent
 * parser (never `eval`).
 */
export function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/%^()]/g) ?? [];
  if (tokens.join('') !== expression.replace(/\s+/g, '')) throw new Error(`unsupported characters in '${expression}'`);
  let i = 0;
  const peek = () => tokens[i];
  const take = () => tokens[i++];
  const primary = (): number => {
    const t = take();
    if (t === '(') {
      const v = sum();
      if (take() !== ')') throw new Error('missing )');
      return v;
    }
    if (t === '-') return -primary();
    if (t === undefined || Number.isNaN(Number(t))) throw new Error(`unexpected '${t ?? 'end'}'`);
    return Number(t);
  };
  const power = (): number => {
    const base = primary();
    return peek() === '^' ? (take(), base ** power()) : base;
  };
  const product = (): number => {
    let v = power();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const op = take();
      const r = power();
      v = op === '*' ? v * r : op === '/' ? v / r : v % r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = take() === '+' ? v + product() : v - product();
    return v;
  };
  const value = sum();
  if (i !== tokens.length) throw new Error(`unexpected '${tokens[i]}'`);
  if (!Number.isFinite(value)) throw new Error('the result is not a finite number');
  return value;
}

export const calculator = defineTool({
  name: 'calculator',
  description: 'Evaluates an arithmetic expression (+ - * / % ^ and parentheses).',
  parameters: z.object({ expression: z.string().min(1).describe('e.g. "2340 * 0.175"') }),
  execute: ({ expression }) => String(Number(evaluate(expression).toPrecision(12))),
  risk: 'read',
});
