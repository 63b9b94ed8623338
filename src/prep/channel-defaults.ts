import type { PrepStep } from '../context/resolved-execution.js';

/** Channels that are not a delivery target. */
const NOT_A_TARGET: ReadonlySet<string> = new Set(['', 'agent', 'daemon']);

/**
 * For a tool with `channelArg`, fills that argument with the turn's `ingress.channel` when it is
 * missing or blank; skipped when the channel is empty, `agent` or `daemon`. A value the model
 * (or a hook) gave is kept.
 *
 * ```
 * call:   --c--            c: notify { text }                 (ingress.channel 'slack')
 * result: --c'--           c': notify { text, channel: 'slack' }
 * ```
 * @example
 * ```ts
 * channelDefaults(call, ctx).args.channel; // 'slack'
 * ```
 */
export const channelDefaults: PrepStep = (call, { turn }) => {
  const arg = call.tool?.channelArg;
  if (arg === undefined) return call;
  const channel = turn.ingress.channel;
  if (typeof channel !== 'string' || NOT_A_TARGET.has(channel.trim().toLowerCase())) return call;
  const current = call.args[arg];
  const blank = current === undefined || current === null || (typeof current === 'string' && current.trim() === '');
  return blank ? { ...call, args: { ...call.args, [arg]: channel } } : call;
};
