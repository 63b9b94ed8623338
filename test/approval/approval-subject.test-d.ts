import { expectTypeOf, test } from 'vitest';
import type { ApprovalPort, ApprovalSubject, Tool, ToolRisk } from '../../src/index.js';

test("the risk levels are read, egress, write and exec ('network' is now 'egress')", () => {
  expectTypeOf<ToolRisk>().toEqualTypeOf<'read' | 'egress' | 'write' | 'exec'>();
});

test('a verdict takes the tool itself (name and risk), or a bare name as before', () => {
  expectTypeOf<Tool>().toExtend<ApprovalSubject>();
  expectTypeOf<ApprovalPort['verdict']>().parameter(0).toEqualTypeOf<ApprovalSubject | string>();
  expectTypeOf<ApprovalPort['needsPrompt']>().parameter(0).toEqualTypeOf<ApprovalSubject | string>();
});
