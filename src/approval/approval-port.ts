/** What the loop needs from an approval manager. `ApprovalManager` implements it. */
export interface ApprovalPort {
  /** Whether policy requires asking an operator before this tool runs. */
  needsPrompt(toolName: string): boolean;
}
