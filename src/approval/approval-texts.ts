/** Model-visible text of a call an operator denied. */
export const DENIED_BY_USER_TEXT = 'Denied by user.';

/**
 * Model-visible text of a prompt-required call nobody could answer (non-interactive, timeout,
 * disconnect). It names no policy internals: no level, no allow-list, no tool list.
 */
export const POLICY_DENIAL_TEXT =
  'Not executed: this call needs approval and no operator answered, so it was denied by policy. ' +
  'This was not the user\u2019s decision; do not retry it unless the user asks.';
