/** Model-visible texts of the preparation steps. */
export const prepTexts = {
  hookCancelled: (reason: string) => `Cancelled by hook: ${reason}`,
  duplicate: (tool: string) => `Skipped duplicate call to '${tool}' with identical arguments.`,
  promptLoop: (tool: string) =>
    `Turn aborted: the model repeated an unapproved call to '${tool}' with the same arguments instead of waiting for approval.`,
} as const;
