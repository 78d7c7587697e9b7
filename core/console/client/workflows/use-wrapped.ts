/** Loads a workflow endpoint (spec 2: answers are `{success, data}`), again when path, query or `reloadKey` change. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';

export function useWrapped<T>(path: string, query?: Record<string, string | number | undefined>, reloadKey = ''): { data?: T; error?: unknown } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const key = `${path}?${JSON.stringify(query ?? {})}#${reloadKey}`;
  useEffect(() => {
    setState({});
    api<{ success: boolean; data: T }>(path, { query }).then((r) => setState({ data: r.data }), (error: unknown) => setState({ error }));
  }, [key]);
  return state;
}
