/** The model-visible system notes and abort messages of the loop detector (README, "Loop detection"). */
export const loopTexts = {
  repeatWarning: (tool: string, n: number) =>
    `Loop warning: '${tool}' has been called ${n} times with identical arguments in this turn. ` +
    'Repeating it will not give you anything new: use the results you already have, try a different approach, or give your answer.',
  repeatBlocked: (tool: string, n: number) =>
    `Loop blocked: '${tool}' has been called ${n} times with identical arguments. Do not call it again with these arguments; ` +
    'one more identical call ends the turn. Answer with what you have, or change your approach.',
  repeatAbort: (tool: string, n: number) =>
    `The turn was stopped by the loop detector: '${tool}' was called ${n} times with identical arguments.`,
  pingPongWarning: (a: string, b: string, cycles: number) =>
    `Loop warning: you have alternated between '${a}' and '${b}' ${cycles} times with no change in their results. ` +
    'Stop alternating: use the results you have, try a different approach, or give your answer.',
  pingPongBlocked: (a: string, b: string, cycles: number) =>
    `Loop blocked: you have alternated between '${a}' and '${b}' ${cycles} times with no change in their results. ` +
    'Do not call them again this way; continuing the pattern ends the turn.',
  pingPongAbort: (a: string, b: string, cycles: number) =>
    `The turn was stopped by the loop detector: it alternated between '${a}' and '${b}' ${cycles} times with no change in their results.`,
  noProgressWarning: (tool: string, n: number) =>
    `Loop warning: '${tool}' has returned the same result ${n} times although its arguments changed. ` +
    'Changing the arguments is not making progress: use what you have, try a different tool or approach, or give your answer.',
  noProgressBlocked: (tool: string, n: number) =>
    `Loop blocked: '${tool}' has returned the same result ${n} times although its arguments changed. ` +
    'Do not keep varying its arguments; continuing ends the turn. Answer with what you have, or change your approach.',
  noProgressAbort: (tool: string, n: number) =>
    `The turn was stopped by the loop detector: '${tool}' returned the same result ${n} times although its arguments changed.`,
} as const;
