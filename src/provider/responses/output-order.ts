/**
 * Where each output item of a response stood, with the ids the Responses API gave it. With
 * stored responses (`store: true`) the API pairs a reasoning item with the item that followed it
 * by id: a history that sends reasoning back must send the next `message` and `function_call`
 * items with their own ids, in the order they came, or the request is refused ("reasoning was
 * provided without its required following item").
 */
export type OutputRef =
  | { readonly type: 'reasoning'; readonly id: string }
  | { readonly type: 'message'; readonly id: string }
  | { readonly type: 'function_call'; readonly id: string; readonly call_id: string };

/** The fields of an output item that name it. */
interface ItemIds {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly call_id?: unknown;
}

/**
 * The reference of one output item, or undefined for an item without an id (or of a type the
 * history does not send back).
 *
 * @example
 * ```ts
 * outputRef({ type: 'function_call', id: 'fc_1', call_id: 'call_1' }); // { type: 'function_call', id: 'fc_1', call_id: 'call_1' }
 * ```
 */
export function outputRef(item: ItemIds | null | undefined): OutputRef | undefined {
  if (item === null || typeof item !== 'object' || typeof item.id !== 'string' || item.id.length === 0) return undefined;
  const { id } = item;
  switch (item.type) {
    case 'reasoning':
      return { type: 'reasoning', id };
    case 'message':
      return { type: 'message', id };
    case 'function_call':
      return typeof item.call_id === 'string' && item.call_id.length > 0 ? { type: 'function_call', id, call_id: item.call_id } : undefined;
    default:
      return undefined;
  }
}
