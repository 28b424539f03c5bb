import { Args, Plugin, Tool } from "@executa/decorators";
import { CategoryNode } from "./category-node.js";
import { Expense } from "./expense.js";
import { LineItem } from "./line-item.js";
import { Payer } from "./payer.js";

/** Tracks expenses. */
@Plugin({ name: "undecorated-nested-fixture", version: "0.1.0" })
export class Expenses {
  /** Records an expense. */
  @Tool()
  record(@Args() expense: Expense) {
    const deepest = expense.category?.children?.[0]?.children?.[0];
    return {
      payerIsInstance: expense.payer instanceof Payer,
      domain: expense.payer.domain,
      itemsAreInstances: expense.items.every((item) => item instanceof LineItem),
      totals: expense.items.map((item) => item.total),
      depth: expense.category?.depth() ?? 0,
      deepestIsInstance: deepest === undefined || deepest instanceof CategoryNode,
    };
  }
}
