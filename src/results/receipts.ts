/** Signs successful executions so their results can be verified later. */
export interface ReceiptGenerator {
  generate(name: string, args: unknown, result: string, ts?: number): string;
  verify(receipt: string, name: string, args: unknown, result: string): boolean;
}
