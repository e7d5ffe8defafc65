import type { RequestRecord } from './request-log';

/** A moment to mark on the timeline (performance.now() milliseconds). */
export interface TimelineMark {
  readonly label: string;
  readonly at: number;
}

const BUCKET_MS = 100;
const OUTCOMES = [
  { name: '2xx', color: '#2e7d32', matches: (r: RequestRecord) => r.status !== null && r.status < 300 },
  { name: '503', color: '#f9a825', matches: (r: RequestRecord) => r.status === 503 },
  { name: 'other', color: '#c62828', matches: () => true },
] as const;

/**
 * A timeline picture, plain SVG: per 100 ms (by the time the answer ended), the writes (creates)
 * and the reads answered, stacked by outcome (2xx, 503, anything else), with the marks (the
 * fault, the promotion, the recovery) as labelled vertical lines. Times are seconds from `from`.
 */
export function timelineSvg(
  title: string,
  records: readonly RequestRecord[],
  from: number,
  to: number,
  marks: readonly TimelineMark[],
): string {
  const buckets = Math.max(1, Math.ceil((to - from) / BUCKET_MS));
  const panels = [
    { name: 'writes (creates, every attempt)', pick: (r: RequestRecord) => r.operation === 'create' },
    { name: 'reads (get by id, list page)', pick: (r: RequestRecord) => r.operation !== 'create' },
  ];
  const counts = panels.map((panel) => {
    const perBucket = Array.from({ length: buckets }, () => OUTCOMES.map(() => 0));
    for (const record of records) {
      if (!panel.pick(record) || record.endedAt < from || record.endedAt >= to) continue;
      const bucket = perBucket[Math.floor((record.endedAt - from) / BUCKET_MS)];
      const outcome = OUTCOMES.findIndex((candidate) => candidate.matches(record));
      if (bucket) bucket[outcome] = (bucket[outcome] ?? 0) + 1;
    }
    return perBucket;
  });
  const peak = Math.max(1, ...counts.flat().map((bucket) => bucket.reduce((a, b) => a + b, 0)));
  const left = 50;
  const barWidth = 3;
  const width = left + buckets * barWidth + 20;
  const panelHeight = 140;
  const top = 40;
  const height = top + panels.length * (panelHeight + 30) + 30;
  const x = (at: number) => left + ((at - from) / BUCKET_MS) * barWidth;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="16" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    ...OUTCOMES.map(
      (outcome, index) =>
        `<rect x="${left + index * 70}" y="24" width="10" height="10" fill="${outcome.color}"/><text x="${left + index * 70 + 14}" y="33">${outcome.name}</text>`,
    ),
    `<text x="${left + 230}" y="33">per 100 ms; peak ${peak} answers</text>`,
  ];
  counts.forEach((perBucket, panelIndex) => {
    const base = top + panelIndex * (panelHeight + 30) + 15 + panelHeight;
    parts.push(`<text x="4" y="${base - panelHeight - 4}">${escapeXml(panels[panelIndex]?.name ?? '')}</text>`);
    parts.push(`<line x1="${left}" y1="${base}" x2="${width - 20}" y2="${base}" stroke="#999"/>`);
    perBucket.forEach((bucket, index) => {
      let y = base;
      bucket.forEach((count, outcome) => {
        if (count === 0) return;
        const h = (count / peak) * panelHeight;
        y -= h;
        parts.push(
          `<rect x="${left + index * barWidth}" y="${y.toFixed(1)}" width="${barWidth - 0.5}" height="${h.toFixed(1)}" fill="${OUTCOMES[outcome]?.color}"/>`,
        );
      });
    });
  });
  const axis = height - 12;
  for (let second = 0; second * 1000 <= to - from; second += 5) {
    parts.push(`<text x="${x(from + second * 1000) - 4}" y="${axis}">${second}s</text>`);
  }
  marks.forEach((mark, index) => {
    const at = x(mark.at).toFixed(1);
    parts.push(`<line x1="${at}" y1="${top}" x2="${at}" y2="${height - 25}" stroke="#1565c0" stroke-dasharray="4 2"/>`);
    parts.push(
      `<text x="${Number(at) + 3}" y="${top + 12 + index * 12}" fill="#1565c0">${escapeXml(mark.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
