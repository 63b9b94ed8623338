import type { ApprovalFrontDoor, ApprovalRequest } from '../../src/approval/index.js';
import { fakeTool } from '../../src/testing/index.js';

// Shared by the bypass suites (invariant 5).

/** A front door that answers `answer` and records what the operator was shown. */
export function door(answer: 'yes' | 'no'): ApprovalFrontDoor & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { name: 'operator', asked, ask: (req) => (asked.push(req), answer) };
}

/** `shell` takes an `approved` marker and must be prompted; `calc` is harmless. */
export function shellTools() {
  const shell = fakeTool('shell', 'ran', { approvalMarker: true });
  const calc = fakeTool('calc', '42');
  return { shell, calc };
}


