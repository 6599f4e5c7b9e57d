/**
 * The order process as data: the states of an order and of the phone it is for, and the
 * transitions between them. The server enforces it (src/server/order-process.ts holds the
 * guards and runs each transition); the client reads it to offer only what can succeed.
 *
 *   order:   unpaid --pay--> paid          unpaid --cancel--> (deleted)
 *   product: available --sell--> sold      available --advertise--> available
 *            available|sold --withdraw--> (deleted; paid orders keep their own record)
 *
 * A transition whose target is `null` removes the row. Adding a state or a transition is one
 * edit here, then its guard in the server's process module.
 */
import type { ORDER_STATUS, PRODUCT_STATUS } from './constants';

export type OrderState = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
export type ProductState = (typeof PRODUCT_STATUS)[keyof typeof PRODUCT_STATUS];

type Graph<S extends string> = Record<S, Readonly<Record<string, S | null>>>;

export const ORDER_PROCESS = {
  order: {
    unpaid: { pay: 'paid', cancel: null },
    paid: {},
  } satisfies Graph<OrderState>,
  product: {
    available: { sell: 'sold', advertise: 'available', withdraw: null },
    sold: { withdraw: null },
  } satisfies Graph<ProductState>,
} as const;

type Process = typeof ORDER_PROCESS;
export type Transition<K extends keyof Process> = {
  [S in keyof Process[K]]: keyof Process[K][S];
}[keyof Process[K]];

/** Whether `transition` leaves `state` in the graph of `kind`. */
export function can<K extends keyof Process>(
  kind: K,
  state: keyof Process[K],
  transition: Transition<K>,
): boolean {
  return Object.hasOwn(ORDER_PROCESS[kind][state] as object, transition);
}

/** The state `transition` leads to from `state`; throws off the graph or where the row goes. */
export function next<K extends keyof Process>(
  kind: K,
  state: keyof Process[K],
  transition: Transition<K>,
): keyof Process[K] {
  const targets = ORDER_PROCESS[kind][state] as Record<string, keyof Process[K] | null>;
  const target = targets[transition as string];
  if (!Object.hasOwn(targets, transition as string) || target == null)
    throw new Error(`${String(transition)} does not lead from ${kind} ${String(state)} to a state`);
  return target;
}
