/**
 * The data folder's metadata (`data/dataset.json`, optional): the license of the data
 * and how to cite it. `citation` may hold `{name}`, `{month}` and `{url}`.
 */
import { z } from 'zod';

export const DatasetSchema = z.object({
  license: z.object({ name: z.string().trim().min(1).max(200), url: z.url({ protocol: /^https?$/ }) }),
  citation: z.string().trim().min(1).max(1000),
});
export type Dataset = z.infer<typeof DatasetSchema>;

/** How to credit the dataset for one month. */
export function citationText(dataset: Dataset, name: string, month: string, home: string): string {
  return dataset.citation.replaceAll('{name}', name).replaceAll('{month}', month).replaceAll('{url}', home);
}

/** Used when the data folder has no dataset.json. */
export const DEFAULT_DATASET: Dataset = {
  license: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
  citation: '{name}, dataset month {month}. Employer visibility rankings in the answers of AI assistants. {url}',
};
