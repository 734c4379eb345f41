import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/platform/http/metrics.js';

describe('request metrics', () => {
  it('count answers per method, route and status, with latency buckets, in Prometheus text', async () => {
    const metrics = createMetrics();
    metrics.http.record('GET', '/api/v1/auth/me', 200, 0.002);
    metrics.http.record('GET', '/api/v1/auth/me', 200, 0.03);
    metrics.http.record('POST', '/api/v1/auth/login', 429, 0.0005);
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain(
      'http_requests_total{method="GET",route="/api/v1/auth/me",status="200"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/api/v1/auth/me",status="200"} 1',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.05",method="GET",route="/api/v1/auth/me",status="200"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/auth/me",status="200"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_count{method="POST",route="/api/v1/auth/login",status="429"} 1',
    );
  });

  it('tell how many answers had one status, over every route', async () => {
    const metrics = createMetrics();
    expect(await metrics.answeredWith(429)).toBe(0);
    metrics.http.record('POST', '/api/v1/auth/login', 429, 0.001);
    metrics.http.record('POST', '/api/v1/auth/send_code', 429, 0.001);
    metrics.http.record('POST', '/api/v1/auth/login', 200, 0.001);
    expect(await metrics.answeredWith(429)).toBe(2);
  });

  it('count each answer once, however many reads run at once', async () => {
    const metrics = createMetrics();
    metrics.http.record('GET', '/api/v1/auth/me', 200, 0.002);
    metrics.http.record('GET', '/api/v1/auth/me', 200, 0.002);
    const texts = await Promise.all([
      metrics.registry.metrics(),
      metrics.registry.metrics(),
      metrics.answeredWith(200),
    ]);
    expect(texts[0]).toContain(
      'http_requests_total{method="GET",route="/api/v1/auth/me",status="200"} 2',
    );
    expect(texts[1]).toContain(
      'http_requests_total{method="GET",route="/api/v1/auth/me",status="200"} 2',
    );
    expect(texts[2]).toBe(2);
    metrics.http.record('GET', '/api/v1/auth/me', 200, 0.002);
    expect(await metrics.registry.metrics()).toContain(
      'http_requests_total{method="GET",route="/api/v1/auth/me",status="200"} 3',
    );
  });
});
