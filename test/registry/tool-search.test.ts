import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/registry/glob-matcher.js';
import { searchDeferredTools } from '../../src/index.js';
import { fakeTool } from '../../src/testing/index.js';

const issues = fakeTool('gh__list_issues', 'x', { description: 'Lists open issues of a repository' });
const pulls = fakeTool('gh__list_pulls', 'x', { description: 'Lists pull requests; also shows linked issues' });
const weather = fakeTool('wx__forecast', 'x', { description: 'Weather forecast for a city' });
const all = [issues, pulls, weather];

describe('tool_search: select:a,b picks exact names, anything else is a keyword search', () => {
  it('select: keeps the given order, ignores unknown names and spaces', () => {
    expect(searchDeferredTools(all, 'select: wx__forecast ,nope,gh__list_issues')).toEqual([weather, issues]);
    expect(searchDeferredTools(all, 'select:list_issues')).toEqual([]);
  });

  it('keyword search ranks name hits above description hits and respects max_results', () => {
    expect(searchDeferredTools(all, 'issues')).toEqual([issues, pulls]);
    expect(searchDeferredTools(all, 'ISSUES', 1)).toEqual([issues]);
    expect(searchDeferredTools(all, 'city weather')).toEqual([weather]);
    expect(searchDeferredTools(all, '   ')).toEqual([]);
  });
});

describe('globs match whole names: * any run, ? one character', () => {
  it('matches and rejects as a glob should', () => {
    const matches = globMatcher(['gh__*', 'wx__f?recast', 'exact.name']);
    expect(['gh__list', 'wx__forecast', 'exact.name'].map(matches)).toEqual([true, true, true]);
    expect(['xgh__list', 'wx__foorecast', 'exactxname'].map(matches)).toEqual([false, false, false]);
  });
});
