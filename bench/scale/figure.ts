/** An SVG heat map of partitions over time: a row per partition, a cell per second, coloured by load. */
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** White (idle) to red (at the limit); past the limit, black. */
function colour(load: number): string {
  if (load >= 1) return '#000000';
  const g = Math.round(255 * (1 - load));
  return `rgb(255,${g},${g})`;
}

export function heatFigure(
  rows: readonly { readonly name: string; readonly wcu: readonly number[] }[],
  seconds: number,
  limit: number,
  title: string,
): string {
  const label = 520;
  const cell = 10;
  const height = 18;
  const width = label + seconds * cell + 20;
  const cells = rows.flatMap((row, r) =>
    row.wcu.map(
      (units, s) =>
        `<rect x="${label + s * cell}" y="${40 + r * height}" width="${cell}" height="${height - 2}" fill="${colour(units / limit)}"><title>${escape(row.name)}: ${Math.round(units)} WCU in second ${s}</title></rect>`,
    ),
  );
  const labels = rows.map(
    (row, r) =>
      `<text x="${label - 6}" y="${40 + r * height + 12}" text-anchor="end" font-size="11">${escape(row.name.length > 80 ? `${row.name.slice(0, 77)}...` : row.name)} (peak ${Math.round(Math.max(...row.wcu))})</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${60 + rows.length * height}" font-family="sans-serif">
<text x="10" y="20" font-size="13">Write units per second per partition (${escape(title)}); white 0, red ${limit} (the partition limit), black past it</text>
${labels.join('\n')}
${cells.join('\n')}
<text x="${label}" y="${52 + rows.length * height}" font-size="11">0 s</text>
<text x="${label + seconds * cell}" y="${52 + rows.length * height}" font-size="11" text-anchor="end">${seconds} s</text>
</svg>
`;
}
