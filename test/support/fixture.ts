/**
 * The setup most test files share: their own API on the shared engines, one app with its key
 * (with `receiver`, a webhook receiver as its destination), and a customer calling as it.
 * Started before the file's tests and stopped after them.
 */
import { afterAll, beforeAll } from "vitest";
import type { NewApp } from "#shared/use-cases/accounts/apps";
import { startApi, type TestApi } from "./api.ts";
import { Customer } from "./client.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

export interface ApiFixture {
  api: TestApi;
  app: NewApp;
  customer: Customer;
  /** Present with `receiver: true`. */
  receiver: Receiver;
}

export function useApiFixture(options: Parameters<typeof startApi>[0] & { receiver?: boolean } = {}): ApiFixture {
  // Filled in before the first test runs; read only inside tests and hooks.
  const fixture = {} as ApiFixture;
  beforeAll(async () => {
    if (options.receiver) fixture.receiver = await startReceiver();
    fixture.api = await startApi(options);
    fixture.app = await fixture.api.newApp(fixture.api.environment, fixture.receiver?.url);
    fixture.customer = new Customer(fixture.api.baseUrl, fixture.app.api_key);
  });
  afterAll(async () => {
    await fixture.api?.stop();
    await fixture.receiver?.stop();
  });
  return fixture;
}
