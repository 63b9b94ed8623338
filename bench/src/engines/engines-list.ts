import type { Engine } from './engine.js';

/** The engines the comparison knows, by the name `--engines=` takes; each loaded only when measured. */
export const ENGINES: Readonly<Record<string, () => Promise<Engine>>> = {
  'pg-boss': async () => (await import('./pg-boss-engine.js')).pgBossEngine,
  dbos: async () => (await import('./dbos.js')).dbosEngine,
  graphile: async () => (await import('./graphile-engine.js')).graphileEngine,
};

/** The engine named `name`, or an error that lists the known ones. */
export async function loadEngine(name: string): Promise<Engine> {
  const load = ENGINES[name];
  if (!load) throw new Error(`bench: no engine '${name}' (known: ${Object.keys(ENGINES).join(', ')})`);
  return load();
}
