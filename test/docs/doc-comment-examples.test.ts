import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_POINTS, exportedNames, root, sourceFiles } from './doc-code.js';

/** One `@example` of a doc comment in src/. */
interface Example {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

/** Every `@example` in src/: the comment lines after the tag up to the next tag or the comment's end, fences dropped. */
function examples(file: string): Example[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const found: Example[] = [];
  lines.forEach((line, at) => {
    if (!/^\s*\*\s*@example\b/.test(line)) return;
    const code: string[] = [];
    for (let i = at + 1; i < lines.length && !/\*\//.test(lines[i]); i++) {
      const text = lines[i].replace(/^\s*\* ?/, '');
      if (/^@\w/.test(text)) break;
      if (!/^\s*```/.test(text)) code.push(text);
    }
    found.push({ file, line: at + 1, code: code.join('\n') });
  });
  return found;
}

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'typeof', 'await', 'async', 'super', 'import', 'new', 'void', 'in', 'of', 'do', 'else']);

/** The code without comments and string contents (template literals keep their `${…}` code). */
function codeOnly(code: string): string {
  return code
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, "''")
    .replace(/`(?:[^`\\$]|\\.|\$(?!\{))*`/g, "''");
}

/** Names the example declares: variables, functions, classes, imports, destructured names and parameters. */
function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  const add = (list: string) => {
    for (const part of list.split(',')) {
      const name = /(?:[\w$]+\s*:\s*|\.\.\.)?([A-Za-z_$][\w$]*)\s*(?:=.*)?$/.exec(part.replace(/\btype\s+/, '').replace(/.*\bas\s+/, '').trim())?.[1];
      if (name) names.add(name);
    }
  };
  for (const m of code.matchAll(/\b(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  for (const m of code.matchAll(/\b(?:const|let|var)\s*[{[]([^}\]]*)[}\]]/g)) add(m[1]);
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\})?\s*(?:\*\s+as\s+([\w$]+))?\s*from\b/g)) {
    if (m[1]) names.add(m[1]);
    if (m[2]) add(m[2]);
    if (m[3]) names.add(m[3]);
  }
  for (const m of code.matchAll(/\(([^()]*)\)\s*(?::\s*[^=]+)?=>|([A-Za-z_$][\w$]*)\s*=>|\bfunction\s*[\w$]*\s*\(([^()]*)\)/g)) add((m[1] ?? m[2] ?? m[3]).replace(/[{}[\]]/g, ','));
  return names;
}

/** Names the example calls or constructs itself (not methods: `a.b()` calls no name). */
function calledNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/(?<![\w$.]|\?\.)([A-Za-z_$][\w$]*)\s*(?:<[^()<>]*>)?\(/g)) if (!KEYWORDS.has(m[1])) names.add(m[1]);
  return names;
}

/** Value names a src file declares at its top level (what its own examples may use: the thing documented). */
function fileNames(file: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8');
  return new Set([...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:const|let|function\*?|class|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]));
}

const all = sourceFiles('src').flatMap(examples);

describe('the @example blocks of doc comments in src/', () => {
  let exported: Record<string, string[]>;
  beforeAll(async () => {
    // rxjs and vitest: examples of operators and of the test helpers leave their imports out
    exported = await exportedNames([...ENTRY_POINTS, 'rxjs', 'vitest']);
  }, 60_000);

  it('are found (the extraction reads the comments)', () => {
    expect(all.length).toBeGreaterThan(200);
    const agent = all.find((e) => e.file.endsWith('create-agent.ts'));
    expect(agent?.code).toContain('createAgent(');
  });

  it('import from the package only what its entry point exports', () => {
    const wrong = all.flatMap((e) =>
      [...e.code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(rx-tool-loop[^']*)'/g)].flatMap(([, list, from]) => {
        const names = (exported[from] ?? []) as string[];
        return list
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '' && !n.startsWith('type ') && !names.includes(n.split(/\s+as\s+/)[0]))
          .map((n) => `${e.file}:${e.line} imports ${n} from ${from}`);
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('call nothing but what they declare, what the package exports, the documented file itself, rxjs, vitest and JavaScript', () => {
    const known = new Set(Object.values(exported).flat());
    const wrong = all.flatMap((e) => {
      const code = codeOnly(e.code);
      const declared = declaredNames(code);
      const own = fileNames(e.file);
      return [...calledNames(code)]
        .filter((name) => !declared.has(name) && !known.has(name) && !own.has(name) && !(name in globalThis))
        .map((name) => `${e.file}:${e.line} calls ${name}`);
    });
    expect(wrong).toEqual([]);
  });

  it('the check finds a call of something the package does not export', () => {
    const code = codeOnly("const child = createAgent({ provider, model, tools: [] });\nconst tools = [delegate(child)]; // 'x()'\nlog.info(x);");
    expect([...calledNames(code)].filter((n) => !declaredNames(code).has(n))).toEqual(['createAgent', 'delegate']);
  });
});
