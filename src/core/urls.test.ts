import { describe, expect, it } from 'vitest';
import { rootRelative } from './urls.ts';

describe('rootRelative', () => {
  const origin = 'https://evi.example';
  it('makes the site own URLs root-relative, keeping path, query and fragment', () => {
    expect(rootRelative('https://evi.example/api/v1?country=gb', origin)).toBe('/api/v1?country=gb');
    expect(rootRelative('https://evi.example/', origin)).toBe('/');
    expect(rootRelative('https://evi.example', origin)).toBe('/');
    expect(rootRelative('https://evi.example#top', origin)).toBe('#top');
  });
  it('leaves other origins alone, including one that only starts like the site', () => {
    expect(rootRelative('https://creativecommons.org/licenses/by/4.0/', origin)).toBe('https://creativecommons.org/licenses/by/4.0/');
    expect(rootRelative('https://evi.example.net/x', origin)).toBe('https://evi.example.net/x');
    expect(rootRelative('https://evi.example:8443/x', origin)).toBe('https://evi.example:8443/x');
  });
});
