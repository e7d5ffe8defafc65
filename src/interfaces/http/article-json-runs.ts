import type { Article } from '../../domain';
import { appendArticleJson } from './presenters';
import { PIECE_CHARS } from './streamed-list';

/**
 * The articles' JSON texts as runs: each run the texts of consecutive articles joined by
 * commas, closed once it holds PIECE_CHARS characters, so that writeStreamedList writes a
 * closed run as it is. Every character is copied once, into its run: a list of 100,000
 * articles built one text per article, then joined into pieces, allocated twice as much (the
 * texts' concatenations, their flattened copies, then the pieces), and the collector ran
 * while chunks were in flight (docs/PERFORMANCE.md).
 */
export function articleJsonRuns(articles: readonly Article[], moment: Date): string[] {
  const runs: string[] = [];
  let parts: string[] = [];
  let chars = 0;
  for (const article of articles) {
    const from = parts.length;
    if (from > 0) parts.push(',');
    appendArticleJson(parts, article, moment);
    for (let index = from; index < parts.length; index++) chars += (parts[index] as string).length;
    if (chars >= PIECE_CHARS) {
      runs.push(parts.join(''));
      parts = [];
      chars = 0;
    }
  }
  if (parts.length > 0) runs.push(parts.join(''));
  return runs;
}
