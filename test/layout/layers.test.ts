import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: object };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Cruises `paths` (relative to the repository) with the project's options and `forbidden` rules. */
async function cruiseTree(paths: string[], forbidden: unknown[]): Promise<ICruiseResult> {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const tsConfig = extractTSConfig('tsconfig.json');
    const reported = await cruise(paths, { ...config.options, validate: true, ruleSet: { forbidden } } as never, {}, { tsConfig });
    return reported.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
}

const describeViolation = (v: IViolation): string =>
  v.cycle ? `${v.rule.name}: ${v.from} → ${v.cycle.map((step) => step.name).join(' → ')}` : `${v.rule.name}: ${v.from} → ${v.to}`;

describe('src/ is built in floors whose imports only point down (.dependency-cruiser.cjs)', () => {
  let result: ICruiseResult;
  beforeAll(async () => {
    result = await cruiseTree(['src'], config.forbidden);
  });

  it('reads the whole tree: every source file is a module, and every import resolves', () => {
    const modules = result.modules.filter((m) => m.source.startsWith('src/')).length;
    expect(modules).toBe(sourceFiles(join(root, 'src')).length);
    const imports = result.modules.flatMap((m) => m.dependencies);
    expect(imports.length).toBeGreaterThan(400);
    expect(imports.filter((d) => d.couldNotResolve).map((d) => d.module)).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles = result.summary.violations.filter((v) => v.rule.name === 'no-circular').map(describeViolation);
    expect(cycles).toEqual([]);
  });

  it('has no import from a lower floor to a higher one, nor between two folders of one floor', () => {
    const upward = result.summary.violations.filter((v) => v.rule.name !== 'no-circular').map(describeViolation);
    expect(upward).toEqual([]);
  });

  it('the rules fire when a floor is crossed (a rule that could never fire proves nothing)', async () => {
    // The same rules with loop/ moved to the ground floor: loop/ imports the stages above it.
    const moved = config.forbidden.map((rule) => {
      const r = rule as { name: string; from: { path?: string }; to: { path?: string } };
      return r.name === 'core-imports-down' ? { ...r, from: { path: '^src/loop/' } } : r;
    });
    const probe = await cruiseTree(['src'], moved);
    const fired = probe.summary.violations.filter((v) => v.rule.name === 'core-imports-down');
    expect(fired.length).toBeGreaterThan(5);
    expect(fired.every((v) => v.from.startsWith('src/loop/'))).toBe(true);
  });
});

describe('files stay small', () => {
  it('no source file is over 250 lines', () => {
    const long = sourceFiles(join(root, 'src'))
      .map((path) => ({ path: relative(root, path), lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > 250);
    expect(long).toEqual([]);
  });
});
