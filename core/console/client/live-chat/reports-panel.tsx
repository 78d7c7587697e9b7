/**
 * The inbox's reports (modules/live-chat/README, Reports): first response time, resolution time and
 * CSAT over a period, as a bar chart per day, week or month and as tables per agent and per team,
 * read from GET /live-chat/reports/{overview,agents,teams} (permission live_chat.reports).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorBox } from '../dialogs';
import { BarChart } from './bar-chart';

interface Durations { count: number; average_seconds: number | null; median_seconds: number | null }
/** One row of a report, as the module answers it. */
interface Metrics { conversations: number; first_response: Durations; resolution: Durations; csat: { count: number; average: number | null; satisfied_percent: number | null } }
interface Overview { from: string; to: string; totals: Metrics; periods: Array<{ period: string } & Metrics> }
interface Named<K extends string> { data: Array<Record<K, number | null> & { name: string | null } & Metrics> }

/** What the chart shows, read from a row. */
const SERIES = {
  first_response: { label: 'First response (average)', of: (m: Metrics) => m.first_response.average_seconds, format: (v: number) => duration(v) },
  resolution: { label: 'Resolution (average)', of: (m: Metrics) => m.resolution.average_seconds, format: (v: number) => duration(v) },
  csat: { label: 'CSAT (average rating)', of: (m: Metrics) => m.csat.average, format: (v: number) => v.toFixed(1) },
  conversations: { label: 'Conversations', of: (m: Metrics) => m.conversations, format: (v: number) => String(Math.round(v)) },
} as const;
type Series = keyof typeof SERIES;

/** Seconds as "45s", "2m 30s", "3h 5m". */
export function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60 ? ` ${s % 60}s` : ''}`;
  const m = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)}h${m ? ` ${m}m` : ''}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

function MetricCells({ m }: { m: Metrics }) {
  return (
    <>
      <td>{m.conversations}</td>
      <td>{duration(m.first_response.average_seconds)} / {duration(m.first_response.median_seconds)}</td>
      <td>{duration(m.resolution.average_seconds)} / {duration(m.resolution.median_seconds)}</td>
      <td>{m.csat.average === null ? '—' : `${m.csat.average.toFixed(2)} (${m.csat.count}, ${m.csat.satisfied_percent}% 4-5)`}</td>
    </>
  );
}

function Table<K extends 'agent_id' | 'team_id'>({ title, rows, idKey, none }: { title: string; rows: Named<K>['data']; idKey: K; none: string }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? <p class="muted">Nothing in this period.</p> : (
        <table class="table" data-report-table={idKey}>
          <thead><tr><th>Name</th><th>Conversations</th><th>First response avg / median</th><th>Resolution avg / median</th><th>CSAT</th></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={String(r[idKey])} data-row={String(r[idKey])}><td>{r.name ?? (r[idKey] === null ? none : `#${r[idKey]}`)}</td><MetricCells m={r} /></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ReportsPanel() {
  const today = new Date();
  const [from, setFrom] = useState(day(new Date(today.getTime() - 29 * 86_400_000)));
  const [to, setTo] = useState(day(today));
  const [group, setGroup] = useState<'day' | 'week' | 'month'>('day');
  const [series, setSeries] = useState<Series>('first_response');
  const [data, setData] = useState<{ overview: Overview; agents: Named<'agent_id'>; teams: Named<'team_id'> } | null>(null);
  const [error, setError] = useState<unknown>();

  const load = () => {
    const query = { from, to };
    Promise.all([
      api<Overview>('/live-chat/reports/overview', { query: { ...query, group_by: group } }),
      api<Named<'agent_id'>>('/live-chat/reports/agents', { query }),
      api<Named<'team_id'>>('/live-chat/reports/teams', { query }),
    ]).then(([overview, agents, teams]) => {
      setData({ overview, agents, teams });
      setError(undefined);
    }, setError);
  };
  useEffect(load, [group]);

  const chosen = SERIES[series];
  return (
    <section class="reports" data-reports aria-label="Reports">
      <form class="list-tools" onSubmit={(e) => { e.preventDefault(); load(); }}>
        <label class="field-label">From <input type="date" data-report-from value={from} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} /></label>
        <label class="field-label">To <input type="date" data-report-to value={to} onInput={(e) => setTo((e.target as HTMLInputElement).value)} /></label>
        <label class="field-label">Per
          <select data-report-group value={group} onChange={(e) => setGroup((e.target as HTMLSelectElement).value as typeof group)}>
            <option value="day">day</option><option value="week">week</option><option value="month">month</option>
          </select>
        </label>
        <label class="field-label">Show
          <select data-report-series value={series} onChange={(e) => setSeries((e.target as HTMLSelectElement).value as Series)}>
            {(Object.keys(SERIES) as Series[]).map((k) => <option key={k} value={k}>{SERIES[k].label}</option>)}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {error ? <ErrorBox error={error} title="Reports could not be loaded" /> : !data ? <p class="muted">Loading…</p> : (
        <>
          <p data-report-totals>
            {data.overview.totals.conversations} conversations · first response {duration(data.overview.totals.first_response.average_seconds)} average, {duration(data.overview.totals.first_response.median_seconds)} median ·
            resolution {duration(data.overview.totals.resolution.average_seconds)} average · CSAT {data.overview.totals.csat.average?.toFixed(2) ?? '—'}
          </p>
          <BarChart title={`${chosen.label} per ${group}`} format={chosen.format} points={data.overview.periods.map((p) => ({ label: p.period, value: chosen.of(p) }))} />
          <Table title="Per agent" rows={data.agents.data} idKey="agent_id" none="—" />
          <Table title="Per team" rows={data.teams.data} idKey="team_id" none="No team" />
        </>
      )}
    </section>
  );
}
