import { waitFor } from '@testing-library/react';
import type { ChartConfiguration, ChartData } from 'chart.js';

/**
 * jsdom has no canvas, so screen tests replace chart.js's Chart with this
 * recorder and check what each chart was given:
 *
 *   vi.mock('chart.js', async (importOriginal) => (await import('../../testing/charts')).chartJsMock(importOriginal));
 */
export class FakeChart {
  static registered: unknown[] = [];
  static register(...items: unknown[]) {
    FakeChart.registered.push(...items);
  }

  canvas: HTMLCanvasElement;
  config: ChartConfiguration;
  data: ChartData;
  updates = 0;
  destroyed = false;

  constructor(canvas: HTMLCanvasElement, config: ChartConfiguration) {
    this.canvas = canvas;
    this.config = config;
    this.data = config.data;
    drawnCharts.push(this);
  }

  update() {
    this.updates += 1;
  }

  destroy() {
    this.destroyed = true;
  }
}

export const drawnCharts: FakeChart[] = [];

export async function chartJsMock(importOriginal: () => Promise<unknown>) {
  return { ...(await importOriginal() as object), Chart: FakeChart };
}

/** The live chart drawn on the canvas inside `element` (a figure, a card). */
export function chartIn(element: HTMLElement): FakeChart {
  const canvas = element.querySelector('canvas');
  const chart = drawnCharts.find((candidate) => candidate.canvas === canvas && !candidate.destroyed);
  if (!chart) throw new Error('No chart is drawn there');
  return chart;
}

/** What a chart shows now: its labels and its first dataset's numbers. */
export function shown(chart: FakeChart): { labels: unknown[]; values: unknown[] } {
  return { labels: [...(chart.data.labels ?? [])], values: [...chart.data.datasets[0].data] };
}

/** Waits for the chart inside `element`: a chart is made in an effect, after its canvas is in the page. */
export function drawnIn(element: HTMLElement): Promise<FakeChart> {
  return waitFor(() => chartIn(element));
}
