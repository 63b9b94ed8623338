import type { FilledSlot, ParsedCall, PreparedCall } from '../core/calls.js';
import type { Tool } from '../core/tool.js';

/**
 * A parsed call as the first version of its prepared call. This object belongs to the
 * preparation that made it: the built-in steps set its tool, arguments and argument key in
 * place (`withField`) instead of copying ten fields per change; every other change, and any
 * change to a call made elsewhere, is a copy.
 *
 * @example
 * ```ts
 * const prepared = toPrepared(parsed); // { call: parsed, slot, id, name, args, tool: undefined, … }
 * ```
 */
export const toPrepared = (call: ParsedCall): PreparedCall => new OwnPreparedCall(call);

/** A class, so all prepared calls have the same fields (bench/RESULTS.md, "Choices in src/ made for speed"). */
class OwnPreparedCall implements PreparedCall {
  readonly call: ParsedCall;
  readonly slot: number;
  readonly id: string;
  name: string;
  args: Record<string, unknown>;
  tool: Tool | undefined = undefined;
  readonly filled: FilledSlot | undefined = undefined;
  readonly prompted: boolean | undefined = undefined;
  argsKey: string | undefined = undefined;

  constructor(call: ParsedCall) {
    this.call = call;
    this.slot = call.slot;
    this.id = call.id;
    this.name = call.name;
    this.args = call.args;
  }
}

/** The fields a built-in step may set in place on a call made by `toPrepared`. */
type InPlace = Pick<OwnPreparedCall, 'tool' | 'args' | 'argsKey'>;

/**
 * `{ ...call, [field]: value }`, written in place when `call` was made by `toPrepared`.
 *
 * @example
 * ```ts
 * return withField(call, 'tool', tool);
 * ```
 */
export function withField<K extends keyof InPlace>(call: PreparedCall, field: K, value: InPlace[K]): PreparedCall {
  if (call instanceof OwnPreparedCall) {
    // a store per name, not `call[field] = value` (bench/RESULTS.md, "Choices in src/ made for speed")
    if (field === 'tool') call.tool = value as InPlace['tool'];
    else if (field === 'args') call.args = value as InPlace['args'];
    else call.argsKey = value as InPlace['argsKey'];
    return call;
  }
  return { ...call, [field]: value };
}
