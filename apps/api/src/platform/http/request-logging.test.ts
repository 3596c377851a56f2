import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loggerOptions, redactingDestination } from '../logging.js';
import { requestLoggingOptions } from './request-logging.js';

async function appLoggingAt(level: string) {
  const lines: Record<string, any>[] = [];
  const logger = pino(
    loggerOptions(level, {}),
    redactingDestination({ write: (line: string) => lines.push(JSON.parse(line)) }),
  );
  const child = vi.spyOn(logger, 'child');
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, ...requestLoggingOptions() });
  app.get('/v1/checkouts/client/:secret', async (request) => ({ id: request.id }));
  app.get('/warns', async (request) => {
    request.log.warn({ detail: 1 }, 'something to see');
    return { id: request.id };
  });
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  await app.ready();
  child.mockClear();
  return { app, lines, child };
}

describe('request logging', () => {
  it('writes one line a request at info, with its id, redacted URL, status and duration', async () => {
    const { app, lines } = await appLoggingAt('info');
    const answer = await app.inject({ method: 'GET', url: '/v1/checkouts/client/polar_c_secretsecret?x=1' });
    expect(answer.statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: answer.json().id,
      req: { method: 'GET', url: '/v1/checkouts/client/[redacted]?x=1' },
      res: { statusCode: 200 },
    });
    expect(typeof line!.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secretsecret');
    await app.close();
  });

  it('writes what a handler logs with the request id, and a failed request with its error', async () => {
    const { app, lines } = await appLoggingAt('info');
    const warned = await app.inject({ method: 'GET', url: '/warns' });
    expect(lines.map((line) => line.msg)).toEqual(['something to see', 'request completed']);
    expect(lines[0]).toMatchObject({ level: 40, detail: 1, reqId: warned.json().id });
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/fails' });
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [50, 'boom'],
      [30, 'request completed'],
    ]);
    expect(lines[1]).toMatchObject({ res: { statusCode: 500 } });
    await app.close();
  });

  it('builds no request logger when nothing is written at the level, and one when something is', async () => {
    const { app, lines, child } = await appLoggingAt('warn');
    await app.inject({ method: 'GET', url: '/v1/checkouts/client/abc' });
    expect(lines).toEqual([]);
    expect(child).not.toHaveBeenCalled();

    const warned = await app.inject({ method: 'GET', url: '/warns' });
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'something to see', reqId: warned.json().id });
    await app.close();
  });
});
