import { useSignals } from '@preact/signals-react/runtime';
import {
  ArcElement,
  CategoryScale,
  Chart as ChartJs,
  DoughnutController,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type ChartTypeRegistry,
  type TooltipItem,
} from 'chart.js';
import { useEffect, useId, useRef, useState } from 'react';
import { formatNumber, t } from '../lib/i18n';
import { colorScheme, type ColorScheme } from '../lib/theme';
import { Icon } from './icons';

// Only what the dashboard and report charts draw: the rest of chart.js stays out of the bundle.
// This module is imported by lazily loaded screens only, so the sign-in screen never loads it.
ChartJs.register(DoughnutController, PieController, LineController, ArcElement, LineElement, PointElement, CategoryScale, LinearScale, Tooltip);

/**
 * The panel's Tailwind palette (v4 declares it in oklch; these are the same
 * colours in sRGB, which chart.js can parse for its hover shades). Each colour
 * keeps at least 3:1 against the white card, as WCAG asks of graphics.
 */
export const chartPalette = {
  indigo: '#4f39f6', // indigo-600: the primary buttons, links and selected tabs
  indigoSoft: '#e0e7ff', // indigo-100
  emerald: '#009966', // emerald-600: success, "Active"
  amber: '#e17100', // amber-600
  red: '#e7000b', // red-600: danger
  grid: '#e2e8f0', // slate-200: card borders
  text: '#45556c', // slate-600: secondary text
} as const;

/**
 * The same roles on the dark card: lighter shades, each at least 3:1 against the dark surface, and
 * the grid, text and slice borders of the dark scheme (index.css).
 */
const darkPalette: Record<string, string> = {
  [chartPalette.indigo]: '#8e96f8',
  [chartPalette.indigoSoft]: '#363e85',
  [chartPalette.emerald]: '#34d399',
  [chartPalette.amber]: '#fbbf24',
  [chartPalette.red]: '#f87171',
  [chartPalette.grid]: '#2b3649',
  [chartPalette.text]: '#a9b3c4',
  '#ffffff': '#141c2b',
};

/** A palette colour as the scheme draws it. */
export function schemeColor(color: string, scheme: ColorScheme): string {
  return scheme === 'dark' ? (darkPalette[color] ?? color) : color;
}

/** Active, inactive and deleted records, in that order, wherever a chart shows states. */
export const stateColors = [chartPalette.emerald, chartPalette.amber, chartPalette.red] as const;

export type ChartKind = 'doughnut' | 'pie' | 'line';

export interface ChartData {
  kind: ChartKind;
  /** The slices (doughnut, pie) or the points along the x axis (line). */
  labels: string[];
  /** One number per label; null where there is none yet (a month still to come), drawn as no point. */
  values: (number | null)[];
  /** What the numbers count: the fallback table's value header and the tooltip's label. */
  seriesLabel: string;
  /** One colour per slice (doughnut, pie); the line's colour first (line). */
  colors: readonly string[];
}

/** The chart.js configuration for `data` (pure, so the mapping can be tested without a canvas). */
export function chartConfig(data: ChartData, scheme: ColorScheme = 'light'): ChartConfiguration {
  const paint = (color: string) => schemeColor(color, scheme);
  // chart.js writes its numbers with the browser's Intl, which may lack the interface language's data: the panel writes them.
  const tooltipLabel = (item: TooltipItem<keyof ChartTypeRegistry>) => `${item.dataset.label ?? ''}: ${formatNumber(Number(item.raw))}`;
  const common = {
    responsive: true,
    maintainAspectRatio: false,
    // Drawn at once: no animation to wait for, and nothing moves for people who asked for less motion.
    animation: false as const,
    plugins: { tooltip: { enabled: true, callbacks: { label: tooltipLabel } } },
  };
  if (data.kind === 'line') {
    const color = paint(data.colors[0] ?? chartPalette.indigo);
    return {
      type: 'line',
      data: {
        labels: data.labels,
        datasets: [
          {
            label: data.seriesLabel,
            data: data.values,
            borderColor: color,
            backgroundColor: color,
            pointBackgroundColor: color,
            pointRadius: 4,
            pointHoverRadius: 6,
            borderWidth: 2,
            // Smooth, but never above or below the points it joins (no dip under zero between two months).
            cubicInterpolationMode: 'monotone',
          },
        ],
      },
      options: {
        ...common,
        scales: {
          x: { grid: { display: false }, ticks: { color: paint(chartPalette.text) } },
          // Counts: whole numbers only on the axis, from zero.
          y: {
            beginAtZero: true,
            grid: { color: paint(chartPalette.grid) },
            ticks: { color: paint(chartPalette.text), precision: 0, callback: (value: number | string) => formatNumber(Number(value)) },
          },
        },
      },
    };
  }
  return {
    type: data.kind,
    data: {
      labels: data.labels,
      datasets: [
        {
          label: data.seriesLabel,
          data: data.values,
          backgroundColor: data.colors.map(paint),
          borderColor: paint('#ffffff'),
          borderWidth: 2,
        },
      ],
    },
    options: { ...common, ...(data.kind === 'doughnut' ? { cutout: '62%' } : {}) },
  };
}

/**
 * A chart.js chart on a canvas that follows its card's width, with its numbers
 * reachable without the colours: pies and doughnuts list every slice with its
 * number and share beside the canvas, and every chart carries a table of its
 * numbers that screen readers read and a button shows to everyone.
 */
export function Chart({
  data,
  caption,
  labelHeader,
  height = 'h-64',
}: {
  data: ChartData;
  /** Names the chart and its table ("Usage history in 2026"). */
  caption: string;
  /** The table's first header ("Month", "State"). */
  labelHeader: string;
  /** The canvas box's height class; the width is the card's. */
  height?: string;
}) {
  useSignals();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<ChartJs | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const total = data.values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  const sliced = data.kind !== 'line';
  // A scheme change draws the chart anew in the other scheme's colours.
  const scheme = colorScheme.value;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const chart = new ChartJs(canvas, chartConfig(dataRef.current, scheme));
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [data.kind, scheme]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    const next = chartConfig(data, scheme);
    chart.data = next.data;
    chart.update();
  }, [data, scheme]);

  const share = (value: number) => (total > 0 ? Math.round((value / total) * 100) : 0);

  return (
    // A container: a pie's legend goes beside it only where its own card is wide enough.
    <figure aria-label={caption} className="@container flex flex-col gap-3">
      <div className={`flex flex-col gap-4 ${sliced ? '@md:flex-row @md:items-center' : ''}`}>
        <div className={`relative min-w-0 ${height} ${sliced ? '@md:w-1/2' : 'w-full'}`}>
          {/* The numbers are in the legend and the table: the picture itself is not read out. */}
          <canvas ref={canvasRef} aria-hidden="true" data-chart={data.kind} />
          {sliced && total === 0 && (
            <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-600">{t('table.empty')}</p>
          )}
        </div>
        {sliced && (
          <ul aria-hidden="true" className="flex flex-col gap-2 text-sm @md:w-1/2">
            {data.labels.map((label, index) => (
              <li key={label} className="flex items-center gap-2">
                <span className="size-3 shrink-0 rounded-sm" style={{ backgroundColor: schemeColor(data.colors[index], scheme) }} />
                <span className="text-slate-700">{label}</span>
                <span className="ml-auto font-semibold text-slate-900 tabular-nums">{formatNumber(data.values[index] ?? 0)}</span>
                <span className="w-10 text-right text-xs text-slate-600 tabular-nums">{share(data.values[index] ?? 0)}%</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <button
          type="button"
          className="inline-flex items-center gap-1.5 rounded-md px-1 text-xs font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
          aria-expanded={tableShown}
          aria-controls={tableId}
          onClick={() => setTableShown((shown) => !shown)}
        >
          <Icon name="layout" className="size-3.5" />
          {tableShown ? t('chart.hideTable') : t('chart.showTable')}
        </button>
        <div id={tableId} className={tableShown ? 'mt-2 overflow-x-auto rounded-lg border border-slate-200' : 'sr-only'}>
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">{caption}</caption>
            <thead className="bg-slate-50 text-xs text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {labelHeader}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  {data.seriesLabel}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.labels.map((label, index) => (
                <tr key={label}>
                  <th scope="row" className="px-3 py-1.5 font-normal text-slate-700">
                    {label}
                  </th>
                  <td className="px-3 py-1.5 text-right tabular-nums">{data.values[index] == null ? '' : formatNumber(data.values[index] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </figure>
  );
}
