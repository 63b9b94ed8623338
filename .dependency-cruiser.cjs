/**
 * The layer check (`npm test` runs it through test/layout/layers.test.ts): src/ is built in
 * floors, and a folder imports only from its own folder or from a lower floor. Folders on one
 * floor do not import each other. The entry files (src/index.ts, src/operators.ts) sit on top.
 */
const floors = [
  ['core'], // the vocabulary: types and constants, and the small RxJS helpers every floor shares (continueWith, AbortSignal to and from Observable)
  ['tool', 'results'], // defineTool; scrubbing, truncation, receipts, loop detection
  ['provider', 'registry', 'approval', 'mcp', 'observe'], // the leaves
  ['context'], // what a turn runs with: the agent's resolved execution, the turn's and the iteration's context, switchModel, hookCall
  ['request', 'prep', 'execute'], // the stages
  ['loop'], // iterate, runToolLoop, the turn snapshot
  ['agent'], // createAgent
  ['testing', 'durable'], // the other public faces
];

const forbidden = [
  { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
];
floors.forEach((floor, level) => {
  for (const folder of floor) {
    const notBelow = floors
      .slice(level)
      .flat()
      .filter((other) => other !== folder);
    forbidden.push({
      name: `${folder}-imports-down`,
      comment: `src/${folder}/ (floor ${level}) may import only its own folder and floors below ${level}`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${notBelow.join('|')})/|^src/[^/]+\\.ts$` },
    });
  }
});

module.exports = {

  forbidden,
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
  },
};
