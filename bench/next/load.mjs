// Imports a module as resolved from this folder, i.e. from bench/next/node_modules: how
// bench/src/peers.ts loads the peers' newest releases (`--peers=next`, the default on Node >= 22).

/**
 * `import(specifier)`, resolved from bench/next.
 * @param {string} specifier a bare specifier, e.g. 'ai' or 'ai/test'
 * @returns {Promise<unknown>} the module's namespace
 */
export const load = (specifier) => import(specifier);
