import { Min } from "class-validator";

/** One line of an expense. */
export class LineItem {
  /** What was bought. */
  label!: string;
  @Min(0) unitPrice!: number;
  quantity = 1;
  get total(): number {
    return this.unitPrice * this.quantity;
  }
}
