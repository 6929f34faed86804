/**
 * /docs renders in a real browser (Debian's headless Chromium driven by playwright-core) with
 * the network closed: every request outside the app is aborted and reported, so an asset
 * from a CDN fails the test. The page must list the spending endpoint.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { unusedPort } from '../helpers/store.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
];

describe('GET /docs in headless Chromium, network closed', () => {
  let app: FastifyInstance;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) ` +
          'or set CHROMIUM_PATH',
      );
    }
    app = await buildApp({ store: unusedPort() });
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists the spending endpoint, with every asset served by the app', async () => {
    const context = await browser.newContext();
    const blocked: string[] = [];
    const failed: string[] = [];
    const errors: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      blocked.push(url);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('requestfailed', (request) => failed.push(request.url()));

    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    const spending = page.locator('.opblock-summary-path[data-path="/v2/users/spending"]');
    await spending.first().waitFor({ timeout: 20_000 });
    expect(await spending.count()).toBe(1);
    expect(
      await page.locator('.opblock-summary-description', { hasText: 'Spending analysis' }).count(),
    ).toBeGreaterThan(0);
    // The legacy endpoint is shown as deprecated.
    expect(await page.locator('.opblock-deprecated [data-path="/v1/users/spending"]').count()).toBe(
      1,
    );
    expect(await page.locator('.info .title').textContent()).toContain(
      'Personal Finance Read-Only API',
    );

    expect(blocked, 'requests outside the app').toEqual([]);
    expect(failed, 'failed requests').toEqual([]);
    expect(errors, 'page errors').toEqual([]);
    // The network really is closed: a request to a CDN is aborted and reported.
    const outcome = await page.evaluate(() =>
      fetch('https://unpkg.com/swagger-ui-dist/swagger-ui.css').then(
        () => 'fetched',
        () => 'blocked',
      ),
    );
    expect(outcome).toBe('blocked');
    expect(blocked).toEqual(['https://unpkg.com/swagger-ui-dist/swagger-ui.css']);
    await context.close();
  });
});
