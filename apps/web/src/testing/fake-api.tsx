import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';

/** One request the page made: method, path and the JSON body. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export type Answer = { status: number; body: unknown };
export type Handler = (request: RecordedRequest) => Answer;

/**
 * Stands in for the server: `fetch` is stubbed, each request is recorded and answered by the handler
 * registered for `METHOD path` (a 500 names what was not expected).
 */
export function fakeApi(handlers: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request = { method, path: url.pathname, body };
    requests.push(request);
    const handler = handlers[`${method} ${url.pathname}`];
    const answer = handler
      ? handler(request)
      : { status: 500, body: { error: 'Unexpected', detail: `${method} ${url}` } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    requests,
    of: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
  };
}

export function renderWithQueryClient(ui: ReactElement) {
  const queryClient = createQueryClient();
  return { queryClient, ...render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>) };
}
