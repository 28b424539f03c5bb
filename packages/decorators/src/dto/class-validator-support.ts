import { toValidatedDto } from "../binding/bind-dto.js";
import type { DtoSupport } from "./dto-support.js";
import { describesArguments, dtoToArguments } from "./dto-to-arguments.js";

/** DTOs read and validated with class-validator and class-transformer. */
export const CLASS_VALIDATOR_SUPPORT: DtoSupport = {
  describesArguments,
  dtoToArguments,
  toValidatedDto,
};
