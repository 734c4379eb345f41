/** A small bar chart drawn as SVG from the data itself: no chart library, nothing fetched. */
const NS = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** One bar per day; the tallest fills the height; each bar's title tells its day and count. */
export function barChart(
  series: Array<{ day: string; count: number }>,
  label: string,
): SVGSVGElement {
  const width = 300;
  const height = 80;
  const max = Math.max(1, ...series.map((p) => p.count));
  const step = width / Math.max(1, series.length);
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height + 14}`,
    class: 'chart',
    role: 'img',
    'aria-label': label,
  });
  series.forEach((p, i) => {
    const h = Math.round((p.count / max) * height);
    const bar = svg('rect', {
      x: (i * step + 1).toFixed(1),
      y: height - h,
      width: Math.max(1, step - 2).toFixed(1),
      height: Math.max(h, p.count ? 1 : 0),
      class: 'bar',
    });
    bar.append(svg('title', {}, `${p.day}：${p.count}`));
    chart.append(bar);
  });
  chart.append(
    svg('line', {
      x1: 0,
      y1: height + 0.5,
      x2: width,
      y2: height + 0.5,
      class: 'axis',
    }),
  );
  if (series.length) {
    chart.append(
      svg(
        'text',
        { x: 0, y: height + 12, class: 'tick' },
        series[0]!.day.slice(5),
      ),
    );
    chart.append(
      svg(
        'text',
        { x: width, y: height + 12, class: 'tick', 'text-anchor': 'end' },
        series[series.length - 1]!.day.slice(5),
      ),
    );
  }
  return chart;
}
