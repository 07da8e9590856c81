import { describe, expect, it } from 'vitest';
import { closeParameter } from './suggest.ts';

const rankings = ['industry', 'country', 'month', 'limit', 'page', 'sort'];

describe('closeParameter', () => {
  it('finds typos, other cases and plurals of a parameter', () => {
    expect(closeParameter('industy', rankings)).toBe('industry');
    expect(closeParameter('contry', rankings)).toBe('country');
    expect(closeParameter('Country', rankings)).toBe('country');
    expect(closeParameter('countries', rankings)).toBe('country');
    expect(closeParameter('industries', rankings)).toBe('industry');
    expect(closeParameter('srot', rankings)).toBe('sort');
    expect(closeParameter('limt', rankings)).toBe('limit');
    expect(closeParameter('pages', rankings)).toBe('page');
    expect(closeParameter('mnth', rankings)).toBe('month');
    expect(closeParameter('Q', ['q', 'country', 'limit'])).toBe('q');
  });

  it('leaves tracking, cache-buster and unrelated names alone', () => {
    for (const name of ['utm_source', '_', 'fbclid', 'callback', 'x', 'qq', 'ts', 'format', 'api_key', 'v'])
      expect(closeParameter(name, [...rankings, 'q', 'companies']), name).toBeUndefined();
  });
});
