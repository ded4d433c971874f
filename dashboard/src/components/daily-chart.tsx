/**
 * The Overview's chart: a pair of bars per day (received, sent), drawn as SVG that scales to its
 * box (no sideways scroll on a phone). It is one image to assistive technology (role="img", its
 * <title> and <desc> saying what it shows and its totals), and the same figures are a table
 * (DailyTable) for whoever reads rather than looks.
 */
import { formatCop, formatDay } from '../format';
import { t } from '../i18n';
import { amountOfCents } from '../money';
import type { DayFigures } from '../overview-figures';

export type Measure = 'amounts' | 'counts';

const WIDTH = 720;
const HEIGHT = 280;
const LEFT = 112;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 34;

const money = (cents: bigint): string => formatCop(amountOfCents(cents));
/** 25/11: a day as the axis shows it. */
const shortDay = (day: string): string => formatDay(day).slice(0, 5);

/** A day's figures in words: what the bar's tooltip and the description say. */
export const dayInWords = (f: DayFigures): string =>
  t('overview.dayFigures', {
    day: formatDay(f.day),
    received: money(f.receivedCents),
    receivedCount: f.receivedCount,
    sent: money(f.sentCents),
    sentCount: f.sentCount,
  });

export interface Totals {
  readonly receivedCount: number;
  readonly receivedCents: bigint;
  readonly sentCount: number;
  readonly sentCents: bigint;
}

export function totalsOf(figures: readonly DayFigures[]): Totals {
  return figures.reduce(
    (sum, f) => ({
      receivedCount: sum.receivedCount + f.receivedCount,
      receivedCents: sum.receivedCents + f.receivedCents,
      sentCount: sum.sentCount + f.sentCount,
      sentCents: sum.sentCents + f.sentCents,
    }),
    { receivedCount: 0, receivedCents: 0n, sentCount: 0, sentCents: 0n },
  );
}

export function DailyChart({
  figures,
  measure,
}: {
  readonly figures: readonly DayFigures[];
  readonly measure: Measure;
}) {
  const first = figures[0]?.day ?? '';
  const last = figures.at(-1)?.day ?? '';
  // Heights only: a double's rounding of the cents changes no pixel.
  const received = (f: DayFigures) => (measure === 'amounts' ? Number(f.receivedCents) : f.receivedCount);
  const sent = (f: DayFigures) => (measure === 'amounts' ? Number(f.sentCents) : f.sentCount);
  const top = Math.max(1, ...figures.flatMap((f) => [received(f), sent(f)]));
  const label = (value: number) => (measure === 'amounts' ? money(BigInt(Math.round(value))) : String(value));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(figures.length, 1);
  const bar = Math.max(1, slot * 0.36);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const totals = totalsOf(figures);
  const busiest = figures.reduce<DayFigures | undefined>(
    (best, f) => (received(f) + sent(f) > (best ? received(best) + sent(best) : 0) ? f : best),
    undefined,
  );
  const description = t(measure === 'amounts' ? 'overview.chartDescAmounts' : 'overview.chartDescCounts', {
    received: money(totals.receivedCents),
    receivedCount: totals.receivedCount,
    sent: money(totals.sentCents),
    sentCount: totals.sentCount,
    busiest: busiest ? dayInWords(busiest) : t('overview.noBusiest'),
  });
  // The scale's top, half and zero, for the eye; whole payments only when counting.
  const ticks = measure === 'counts' && top < 2 ? [0, top] : [0, top / 2, top];
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby="chart-title chart-desc"
      preserveAspectRatio="xMidYMid meet"
    >
      <title id="chart-title">{t('overview.chartTitle', { from: formatDay(first), to: formatDay(last) })}</title>
      <desc id="chart-desc">{description}</desc>
      {ticks.map((value) => (
        <g key={value} class="tick">
          <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(value)} y2={y(value)} />
          <text x={LEFT - 6} y={y(value) + 4} text-anchor="end">
            {label(measure === 'counts' ? Math.round(value) : value)}
          </text>
        </g>
      ))}
      {figures.map((f, index) => {
        const x = LEFT + index * slot + (slot - 2 * bar) / 2;
        // Each day's figures are its tooltip.
        const today = index === figures.length - 1;
        // Every fifth day and today are named under the axis, none so near today that the names touch.
        const named = (index % 5 === 0 && index < figures.length - 5) || today;
        return (
          <g key={f.day} class="day">
            <title>{dayInWords(f)}</title>
            <rect class="received" x={x} y={y(received(f))} width={bar} height={y(0) - y(received(f))} />
            <rect class="sent" x={x + bar} y={y(sent(f))} width={bar} height={y(0) - y(sent(f))} />
            {named && (
              // Today's name ends at its bars, so the chart's edge does not cut it.
              <text x={today ? x + 2 * bar : x + bar} y={HEIGHT - BOTTOM + 20} text-anchor={today ? 'end' : 'middle'}>
                {shortDay(f.day)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** The chart's figures as a table: every day, then the 30 days' totals. */
export function DailyTable({ figures }: { readonly figures: readonly DayFigures[] }) {
  const totals = totalsOf(figures);
  const cells = (f: Totals) => (
    <>
      <td class="number">{f.receivedCount}</td>
      <td class="number">{money(f.receivedCents)}</td>
      <td class="number">{f.sentCount}</td>
      <td class="number">{money(f.sentCents)}</td>
    </>
  );
  return (
    <table class="figures">
      <caption>{t('overview.tableCaption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('overview.day')}</th>
          <th scope="col" class="number">
            {t('overview.receivedCount')}
          </th>
          <th scope="col" class="number">
            {t('overview.receivedAmount')}
          </th>
          <th scope="col" class="number">
            {t('overview.sentCount')}
          </th>
          <th scope="col" class="number">
            {t('overview.sentAmount')}
          </th>
        </tr>
      </thead>
      <tbody>
        {figures.map((f) => (
          <tr key={f.day}>
            <th scope="row">{formatDay(f.day)}</th>
            {cells(f)}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{t('overview.total')}</th>
          {cells(totals)}
        </tr>
      </tfoot>
    </table>
  );
}
