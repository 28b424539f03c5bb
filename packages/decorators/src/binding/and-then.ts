/**
 * Applies `next` to `value` now, or once it resolves when it is a promise: synchronous
 * work stays synchronous, so core can answer a plain tool without a promise.
 */
export function andThen<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? (value.then(next) as Promise<R>) : next(value);
}
