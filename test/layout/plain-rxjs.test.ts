import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Code only: comments blanked, so a doc comment may name what the code must not do. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
}

/** What leans on RxJS's internals, or on V8's object layouts, with why each is out. */
const forbidden: readonly (readonly [RegExp, string])[] = [
  [/(?:from|import|require\()\s*['"]rxjs\/internal/, 'imports rxjs/internal'],
  [/extends\s+(?:Subscriber|Observable|Subscription|Subject)\b/, 'subclasses an RxJS class'],
  [/\b(?:_parentage|_finalizers|initialTeardown|isStopped)\b/, "touches a private member of RxJS's Subscription"],
  [/\.destination\b/, "reads a Subscriber's destination"],
  [/\b_subscribe\b|\b_next\b|\b_error\b|\b_complete\b|\b_trySubscribe\b/, "overrides or calls RxJS's protected methods"],
  [/\bsetPrototypeOf\b|\.prototype\s*=[^=]|\.__proto__\s*=[^=]/, 'changes a prototype'],
  [/static\s+readonly\s+#shape\b/, 'keeps an object layout alive'],
];

describe('src/ uses RxJS through its public API only (DESIGN.md, STYLE.md 16)', () => {
  const files = sourceFiles(join(root, 'src'));

  it('reads every source file', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('no file imports rxjs/internal, subclasses an RxJS class, touches its private members or keeps V8 layouts', () => {
    const found: string[] = [];
    for (const file of files) {
      const code = codeOf(readFileSync(file, 'utf8'));
      for (const [pattern, why] of forbidden) if (pattern.test(code)) found.push(`${relative(root, file)}: ${why}`);
    }
    expect(found).toEqual([]);
  });

  it('the checks see what they look for (a subclass of Subscriber, a private member, rxjs/internal)', () => {
    const probes = [
      "import { Subscriber } from 'rxjs/internal/Subscriber';",
      'class Lean<T> extends Subscriber<T> {}',
      'sub._finalizers = null;',
      'Object.setPrototypeOf(shell, base);',
    ];
    for (const probe of probes) expect(forbidden.some(([pattern]) => pattern.test(codeOf(probe))), probe).toBe(true);
  });

  it('the loop runs on RxJS operators: mergeMap under the cap, concatMap in sequence, takeUntil, expand', () => {
    const read = (path: string) => codeOf(readFileSync(join(root, 'src', path), 'utf8'));
    expect(read('execute/dispatch-calls.ts')).toMatch(/mergeMap\(run, it\.resolved\.knobs\.maxParallelTools\)/);
    expect(read('execute/dispatch-calls.ts')).toMatch(/concatMap\(run\)/);
    expect(read('execute/dispatch-calls.ts')).toMatch(/takeUntil\(cancel\$\)/);
    expect(read('loop/run-tool-loop.ts')).toMatch(/expand\(/);
    expect(read('prep/prepare-calls.ts')).toMatch(/concatMap\(/);
  });
});
