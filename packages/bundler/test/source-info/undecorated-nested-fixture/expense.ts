// The zero-annotation style: no decorator on the nested fields, no @Type. `LineItem` is
// imported for its type only and `Payer` only used as a type, so the compilers would drop
// both imports; the recorded facts refer to them as values.
import { CategoryNode } from "./category-node.js";
import type { LineItem } from "./line-item.js";
import { Payer } from "./payer.js";

export class Expense {
  /** What the expense was for. */
  title!: string;
  items!: LineItem[];
  payer!: Payer;
  category?: CategoryNode;
}
