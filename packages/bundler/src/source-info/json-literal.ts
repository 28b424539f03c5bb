import type * as ts from "typescript";
import type { TypeScriptModule } from "./load-typescript.js";

/** Marks an initializer that is not a JSON literal. */
export const NOT_JSON: unique symbol = Symbol("not JSON");

/**
 * The value of an initializer written as a JSON literal (strings, numbers, `-1`, booleans,
 * `null`, arrays and objects of those), else {@link NOT_JSON}: a default computed at run
 * time (a call, a constant, a template) is not copied into the manifest.
 */
export function jsonLiteral(tsm: TypeScriptModule, node: ts.Expression): unknown {
  const SK = tsm.SyntaxKind;
  if (tsm.isParenthesizedExpression(node) || tsm.isAsExpression(node) || tsm.isSatisfiesExpression(node)) {
    return jsonLiteral(tsm, node.expression);
  }
  if (tsm.isStringLiteral(node) || tsm.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (tsm.isNumericLiteral(node)) return Number(node.text);
  if (
    tsm.isPrefixUnaryExpression(node) &&
    node.operator === SK.MinusToken &&
    tsm.isNumericLiteral(node.operand)
  ) {
    return -Number(node.operand.text);
  }
  if (node.kind === SK.TrueKeyword) return true;
  if (node.kind === SK.FalseKeyword) return false;
  if (node.kind === SK.NullKeyword) return null;
  if (tsm.isArrayLiteralExpression(node)) return arrayLiteral(tsm, node);
  if (tsm.isObjectLiteralExpression(node)) return objectLiteral(tsm, node);
  return NOT_JSON;
}

function arrayLiteral(tsm: TypeScriptModule, node: ts.ArrayLiteralExpression): unknown {
  const values: unknown[] = [];
  for (const element of node.elements) {
    const value = jsonLiteral(tsm, element);
    if (value === NOT_JSON) return NOT_JSON;
    values.push(value);
  }
  return values;
}

function objectLiteral(tsm: TypeScriptModule, node: ts.ObjectLiteralExpression): unknown {
  const result: Record<string, unknown> = {};
  for (const property of node.properties) {
    if (!tsm.isPropertyAssignment(property)) return NOT_JSON;
    const key = property.name;
    if (!tsm.isIdentifier(key) && !tsm.isStringLiteral(key) && !tsm.isNumericLiteral(key)) return NOT_JSON;
    if (key.text === "__proto__") return NOT_JSON;
    const value = jsonLiteral(tsm, property.initializer);
    if (value === NOT_JSON) return NOT_JSON;
    result[key.text] = value;
  }
  return result;
}
