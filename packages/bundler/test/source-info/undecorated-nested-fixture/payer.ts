import { IsEmail } from "class-validator";

export class Payer {
  @IsEmail() email!: string;
  name?: string;
  get domain(): string {
    return this.email.slice(this.email.indexOf("@") + 1);
  }
}
