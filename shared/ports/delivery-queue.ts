import type { DeliveryMessage } from "../domain/webhook-events.ts";

/** Where new webhook events wait for their first attempt, apart from the change stream. */
export interface DeliveryQueue {
  send(message: DeliveryMessage): Promise<void>;
}
