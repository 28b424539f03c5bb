/**
 * The decorated subject of the validation figure: one tool whose arguments are a
 * 10-field DTO checked by class-validator (`@Args()`), and its twin taking the same 10
 * fields as `@Param`s (type-checked against the manifest like every decorated tool, but
 * without a DTO). Also `base64_encode`, so that every figure can run on it.
 *
 * Built by the bench's tsup config with the Executa bundler into dist/subjects/.
 */
import { Args, Field, Param, Plugin, serve, Tool } from "@executa/decorators";
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from "class-validator";

const COUNTRIES = ["DE", "FR", "US", "JP"] as const;

/** A contact with ten validated fields. */
class ContactDto {
  @Field({ description: "Full name, 1-100 characters." })
  @IsString()
  @Length(1, 100)
  name!: string;

  @Field({ description: "E-mail address." })
  @IsEmail()
  email!: string;

  @Field({ description: "Age in years, 0-150.", type: "integer" })
  @IsInt()
  @Min(0)
  @Max(150)
  age!: number;

  @Field({ description: "Score between 0 and 1." })
  @IsNumber()
  @Min(0)
  @Max(1)
  score!: number;

  @Field({ description: "Whether the contact is active." })
  @IsBoolean()
  active!: boolean;

  @Field({ description: "Up to 10 tags.", items: "string" })
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  tags!: string[];

  @Field({ description: "Country code.", enum: COUNTRIES })
  @IsIn(COUNTRIES)
  country!: string;

  @Field({ description: "Five-digit postal code." })
  @Matches(/^\d{5}$/)
  zip!: string;

  @Field({ description: "An https URL." })
  @IsUrl({ protocols: ["https"], require_protocol: true })
  website!: string;

  @Field({ description: "Free text up to 500 characters." })
  @IsString()
  @MaxLength(500)
  notes!: string;
}

const saved = (name: string, tags: readonly string[]) => ({ saved: true, name, tag_count: tags.length });

@Plugin({
  name: "bench-dto-plugin",
  description: "A decorated plugin with a 10-field DTO tool and its unvalidated twin, for the bench.",
})
export class DtoPlugin {
  @Tool({ description: "Encode text as base64." })
  base64Encode(@Param("text", { description: "Text to encode." }) text: string) {
    return { encoded: Buffer.from(text, "utf8").toString("base64"), original_length: text.length };
  }

  @Tool({ description: "Save a contact (10-field DTO, validated by class-validator)." })
  saveContact(@Args() contact: ContactDto) {
    return saved(contact.name, contact.tags);
  }

  @Tool({ description: "Save a contact (the same 10 fields as parameters, no DTO validation)." })
  saveContactUnchecked(
    @Param("name", { description: "Full name." }) name: string,
    @Param("email", { description: "E-mail address." }) _email: string,
    @Param("age", { description: "Age in years.", type: "integer" }) _age: number,
    @Param("score", { description: "Score." }) _score: number,
    @Param("active", { description: "Whether the contact is active." }) _active: boolean,
    @Param("tags", { description: "Tags.", items: "string" }) tags: string[],
    @Param("country", { description: "Country code.", enum: COUNTRIES }) _country: string,
    @Param("zip", { description: "Postal code." }) _zip: string,
    @Param("website", { description: "A URL." }) _website: string,
    @Param("notes", { description: "Free text." }) _notes: string,
  ) {
    return saved(name, tags);
  }
}

serve(DtoPlugin);
