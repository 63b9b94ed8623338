import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectTypeOf, test } from 'vitest';
import type { McpClient } from '../../src/index.js';

test('a connected SDK Client is an McpClient', () => {
  expectTypeOf<Client>().toExtend<McpClient>();
});
