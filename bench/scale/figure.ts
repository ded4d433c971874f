/**
 * An SVG heat map of partitions over time: a row per partition, a cell per second, coloured by its
 * load, the larger of its write units against their limit and its read units against theirs.
 */
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** White (idle) to red (at the limit); past the limit, black. */
function colour(load: number): string {
  if (load >= 1) return '#000000';
  const g = Math.round(255 * (1 - load));
  return `rgb(255,${g},${g})`;
}

/** An id (a UUID) in a partition's name. */
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A partition's name with its ids cut to their first 8 characters: the rows stay readable. */
const shortName = (name: string): string => name.replace(UUID, (id) => `${id.slice(0, 8)}…`);

export function heatFigure(
  rows: readonly { readonly name: string; readonly wcu: readonly number[]; readonly rcu: readonly number[] }[],
  seconds: number,
  limits: { readonly wcu: number; readonly rcu: number },
  title: string,
): string {
  const label = 500;
  const cell = 10;
  const height = 18;
  const width = label + seconds * cell + 20;
  const load = (row: (typeof rows)[number], s: number) => Math.max(row.wcu[s]! / limits.wcu, row.rcu[s]! / limits.rcu);
  const cells = rows.flatMap((row, r) =>
    row.wcu.map(
      (units, s) =>
        `<rect x="${label + s * cell}" y="${40 + r * height}" width="${cell}" height="${height - 2}" fill="${colour(load(row, s))}"><title>${escape(row.name)}: ${Math.round(units)} WCU, ${Math.round(row.rcu[s]!)} RCU in second ${s}</title></rect>`,
    ),
  );
  const peak = (row: (typeof rows)[number]) => {
    const [wcu, rcu] = [Math.max(...row.wcu), Math.max(...row.rcu)];
    return wcu / limits.wcu >= rcu / limits.rcu ? `${Math.round(wcu)} WCU/s` : `${Math.round(rcu)} RCU/s`;
  };
  const labels = rows.map(
    (row, r) =>
      `<text x="${label - 6}" y="${40 + r * height + 12}" text-anchor="end" font-size="11">${escape(shortName(row.name))} (peak ${peak(row)})</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${60 + rows.length * height}" font-family="sans-serif">
<text x="10" y="20" font-size="13">Load per partition (${escape(title)}): white idle, red at the limit (${limits.wcu} WCU/s or ${limits.rcu} RCU/s), black past it</text>
${labels.join('\n')}
${cells.join('\n')}
<text x="${label}" y="${52 + rows.length * height}" font-size="11">0 s</text>
<text x="${label + seconds * cell}" y="${52 + rows.length * height}" font-size="11" text-anchor="end">${seconds} s</text>
</svg>
`;
}
