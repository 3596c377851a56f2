import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../src/paths.js';

/**
 * The deployment files cannot be run here (no Docker, no cluster): they are parsed, and what the
 * operations guide promises of them is checked.
 */

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

function yamlDocuments(path: string): any[] {
  // Merge keys (`<<: *anchor`) as Docker Compose reads them.
  const documents = parseAllDocuments(read(path), { merge: true });
  for (const document of documents) expect(document.errors, `${path}: ${document.errors.join('; ')}`).toEqual([]);
  return documents.map((document) => document.toJS({ maxAliasCount: 100 }));
}

describe('compose.yaml', () => {
  const compose = yamlDocuments('compose.yaml')[0];

  it('runs PostgreSQL, two API nodes, a worker and a proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api-1', 'api-2', 'postgres', 'proxy', 'worker']);
    expect(compose.services['api-1'].command).toEqual(['serve', '--role', 'api']);
    expect(compose.services['api-2'].command).toEqual(['serve', '--role', 'api']);
    expect(compose.services.worker.command).toEqual(['serve', '--role', 'worker']);
  });

  it('gives every node the same database and secret, in production mode', () => {
    for (const name of ['api-1', 'api-2', 'worker']) {
      const environment = compose.services[name].environment;
      expect(environment.NODE_ENV).toBe('production');
      expect(environment.DATABASE_URL).toMatch(/^postgres:\/\/tessera:.*@postgres:5432\/tessera$/);
      expect(environment.SECRET).toContain('${SECRET');
      expect(compose.services[name].depends_on.postgres.condition).toBe('service_healthy');
    }
  });

  it('sends the proxy to both API nodes', () => {
    const nginx = read('deploy/compose/nginx.conf');
    expect(nginx).toContain('server api-1:8000');
    expect(nginx).toContain('server api-2:8000');
    expect(compose.services.proxy.volumes[0]).toContain('./deploy/compose/nginx.conf:');
  });
});

describe('deploy/kubernetes', () => {
  const manifests = readdirSync(join(REPO_ROOT, 'deploy/kubernetes'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => yamlDocuments(`deploy/kubernetes/${file}`));
  const find = (kind: string, name: string) =>
    manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);

  it('has a Deployment for the API with readiness and liveness probes, and one for workers', () => {
    const api = find('Deployment', 'tessera-api');
    const [container] = api.spec.template.spec.containers;
    expect(container.args).toEqual(['serve', '--role', 'api']);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(api.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    // Room for the preStop pause and the 30 s drain.
    expect(api.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(30);

    const worker = find('Deployment', 'tessera-worker');
    expect(worker.spec.template.spec.containers[0].args).toEqual(['serve', '--role', 'worker']);
  });

  it('routes the Service to the API pods', () => {
    const service = find('Service', 'tessera-api');
    const api = find('Deployment', 'tessera-api');
    expect(service.spec.selector).toEqual(api.spec.selector.matchLabels);
    expect(service.spec.ports[0].targetPort).toBe(api.spec.template.spec.containers[0].ports[0].name);
  });

  it('takes DATABASE_URL and SECRET from one Secret', () => {
    const secret = find('Secret', 'tessera');
    expect(Object.keys(secret.stringData).sort()).toEqual(['DATABASE_URL', 'SECRET']);
    for (const name of ['tessera-api', 'tessera-worker']) {
      const [container] = find('Deployment', name).spec.template.spec.containers;
      expect(container.envFrom).toEqual([{ secretRef: { name: 'tessera' } }]);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds in stages and runs as a non-root user with a health check', () => {
    expect(dockerfile.match(/^FROM .+ AS \w+$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^USER 10001:10001$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/healthz/m);
    // What the runtime needs besides node_modules (paths.ts resolves them from the API's dist/).
    for (const path of ['apps/api/dist', 'apps/api/migrations', 'apps/web/dist', 'apps/api/bin'])
      expect(dockerfile).toContain(`./${path}`);
  });

  it('is the image compose builds', () => {
    expect(parse(read('compose.yaml'), { merge: true })['x-tessera'].build).toBe('.');
  });
});
