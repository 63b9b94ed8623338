import type { Agent, ApprovalFrontDoor, BackchannelRequest, ModelProvider, Tool } from '../../src/index.js';
import { ApprovalManager, backchannelApproval, createAgent, createReceiptGenerator } from '../../src/index.js';
import { scriptedModel } from '../../src/testing/index.js';
import { calculator } from '../tools/calculator.js';
import { clock } from '../tools/clock.js';
import { fileRead } from '../tools/file-read.js';
import { consoleScript } from './demo-script.js';
import { fileWrite } from './file-write.js';

export interface ConsoleDemoOptions {
  /** The console's `request`: where approval prompts go. */
  readonly request: BackchannelRequest;
  /** The folder `file_read` may read. */
  readonly root: string;
  /** The folder `file_write` writes into. */
  readonly sandbox: string;
  /** Default: the embedded scripted model (`consoleScript`). */
  readonly provider?: ModelProvider;
  readonly model?: string;
  /** More tools next to the four of the demo (each needs approval unless its risk is `'read'`). */
  readonly extraTools?: readonly Tool[];
  /** Where approval prompts go instead of the console's `request` (`pauseForApproval()` for a durable console). */
  readonly frontDoor?: ApprovalFrontDoor;
  /** What parked turns are sealed with; consoles on one database need the same one (`AgentConfig.snapshotKey`). */
  readonly snapshotKey?: string;
}

/**
 * The console's demo agent: calculator, file_read and clock (risk `'read'`) run on their own;
 * `file_write` (`'write'`) needs the operator's approval from the web page (a supervised
 * `ApprovalManager` whose front door is the console). Successful executions carry receipts,
 * shown on their cards.
 *
 * @example
 * ```ts
 * const web = createApprovalConsole();
 * web.serve(createConsoleDemoAgent({ request: web.request, root, sandbox }));
 * ```
 */
export function createConsoleDemoAgent(options: ConsoleDemoOptions): Agent {
  const approval = new ApprovalManager(
    { level: 'supervised' },
    options.frontDoor ?? backchannelApproval(options.request, { name: 'web-console' }),
  );
  return createAgent({
    name: 'console-demo',
    provider: options.provider ?? scriptedModel(consoleScript),
    model: options.model ?? 'scripted-console',
    instructions: 'You are a careful assistant. Use the tools; saving files needs the operator’s approval.',
    tools: [calculator, fileRead(options.root), clock, fileWrite(options.sandbox), ...(options.extraTools ?? [])],
    approval,
    receipts: createReceiptGenerator(),
    ...(options.snapshotKey !== undefined ? { snapshotKey: options.snapshotKey } : {}),
  });
}
