import { MinLength } from "class-validator";

/** A category, with its subcategories. */
export class CategoryNode {
  @MinLength(1) name!: string;
  children?: CategoryNode[];
  depth(): number {
    return 1 + Math.max(0, ...(this.children ?? []).map((child) => child.depth()));
  }
}
