import { describe, expect, it } from 'vitest';
import { IssueList, didYouMean, nearest } from './data-error.ts';

describe('suggestions', () => {
  const countries = ['au', 'Australia', 'us', 'United States', 'de', 'Germany', 'fr', 'France'];
  it('are offered for a near value only', () => {
    expect(nearest('zz', countries)).toBeUndefined();
    expect(didYouMean('zz', countries)).toBe('');
    expect(nearest('Germny', countries)).toBe('Germany');
    expect(nearest('Untied States', countries)).toBe('United States');
    expect(nearest('ux', countries)).toBe('us');
  });
});

describe('IssueList', () => {
  it("names a column by its place in the file when the file's columns are reordered", () => {
    const issues = new IssueList();
    issues.columnsInFile('m.csv', ['answer_id', 'company', 'country']);
    issues.add({ file: 'm.csv', line: 2, column: 4, columnName: 'country', message: 'x' });
    issues.add({ file: 'other.csv', line: 2, column: 4, columnName: 'country', message: 'x' });
    expect(issues.items.map((i) => i.column)).toEqual([3, 4]);
  });
});
