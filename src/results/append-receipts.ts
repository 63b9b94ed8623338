/**
 * Lists receipts at the end of a final answer (knob `appendReceiptsToAnswer`), so a reader can
 * verify which tool results the answer rests on. No receipts: the text unchanged.
 *
 * @example
 * ```ts
 * appendReceipts('It rains in Oslo.', ['rtl-receipt-v2-1700000000-Qm…']);
 * // 'It rains in Oslo.\n\nReceipts:\n- rtl-receipt-v2-1700000000-Qm…'
 * ```
 */
export function appendReceipts(text: string, receipts: readonly string[]): string {
  if (receipts.length === 0) return text;
  const list = `Receipts:\n${receipts.map((r) => `- ${r}`).join('\n')}`;
  return text.length > 0 ? `${text}\n\n${list}` : list;
}
