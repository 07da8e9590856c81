import { describe, expect, it } from 'vitest';
import { closeMonths, closeParameter, closeValues } from './suggest.ts';

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

describe('closeValues', () => {
  const industries = [['Technology', 'technology'], ['Financial Services', 'financial-services'], ['Aerospace', 'aerospace'], ['Airline', 'airline']];
  it('finds the valid values a misspelt one looks like, each thing once, closest first', () => {
    expect(closeValues('technolgy', industries)).toEqual(['technology']);
    expect(closeValues('Technolgy', industries)).toEqual(['Technology']);
    expect(closeValues('financal-services', industries)).toEqual(['financial-services']);
    expect(closeValues('aero', industries)).toEqual(['aerospace']);
    expect(closeValues('Frnace', [['France', 'fr'], ['Germany', 'de']])).toEqual(['France']);
    expect(closeValues('airlnie', industries)).toEqual(['airline']);
  });
  it('suggests nothing for a value close to none, and at most five', () => {
    expect(closeValues('underwater-basket-weaving', industries)).toEqual([]);
    expect(closeValues('  ', industries)).toEqual([]);
    const codes = ['aa', 'ab', 'ac', 'ad', 'ae', 'af', 'ag'].map((c) => [c]);
    expect(closeValues('ax', codes)).toHaveLength(5);
  });
});

describe('closeMonths', () => {
  const months = ['2026-01', '2026-03', '2026-04'];
  it('names the nearest dataset months in time, or a typo away for a malformed month', () => {
    expect(closeMonths('2027-06', months)).toEqual(['2026-04']);
    expect(closeMonths('2025-02', months)).toEqual(['2026-01']);
    expect(closeMonths('2026-02', months)).toEqual(['2026-01', '2026-03']);
    expect(closeMonths('2026-4', months)).toEqual(['2026-04']);
    expect(closeMonths('202603', months)).toEqual(['2026-03']);
    expect(closeMonths('april', months)).toEqual([]);
  });
});
