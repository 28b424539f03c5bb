/**
 * A first-in, first-out queue of items read but not yet handled. Taking from the front is
 * O(1) (a moving head, compacted now and then), where `Array.shift` would copy the rest
 * of a long queue on every call.
 */
export class RequestQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  /** Items waiting. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Adds an item at the back. */
  push(item: T): void {
    this.items.push(item);
  }

  /** The front item, left in place; undefined when empty. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  /** Removes and returns the front item; undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
