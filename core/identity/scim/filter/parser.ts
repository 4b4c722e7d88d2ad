import { scimError, type ScimType } from '../errors.ts';
import { enterpriseUserUrn, groupSchemaUrn, userSchemaUrn } from '../schema.ts';
import { type Token, tokenize } from './tokenizer.ts';

export const compareOps = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const;
export type CompareOp = (typeof compareOps)[number];
export type CompValue = string | number | boolean | null;

/** `[urn ":"] attr ["." sub]`, names as written (resolved case-insensitively later). */
export type AttrPath = { readonly urn: string | undefined; readonly attr: string; readonly sub: string | undefined };

export type FilterNode =
  | { readonly kind: 'and' | 'or'; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly kind: 'not'; readonly filter: FilterNode }
  | { readonly kind: 'present'; readonly path: AttrPath }
  | { readonly kind: 'compare'; readonly path: AttrPath; readonly op: CompareOp; readonly value: CompValue }
  | { readonly kind: 'valuePath'; readonly path: AttrPath; readonly filter: FilterNode };

/** A PATCH target: `attrPath` or `valuePath [ "." subAttr ]` (RFC 7644 3.5.2). */
export type PatchPath = {
  readonly path: AttrPath;
  readonly filter: FilterNode | undefined;
  /** Sub-attribute after a value filter, e.g. `value` in `emails[type eq "work"].value`. */
  readonly subAfterFilter: string | undefined;
};

const knownUrns = [userSchemaUrn, groupSchemaUrn, enterpriseUserUrn];
const namePattern = /^[A-Za-z$][A-Za-z0-9_$-]*$/;
/** Deep nesting is refused before it can exhaust the stack; more comparisons than this is "tooMany". */
const maxDepth = 32;
export const maxComparisons = 64;

/** Splits `urn:...:User:name.givenName` into schema URN, attribute and sub-attribute. */
export const parseAttrPath = (text: string, errorType: ScimType): AttrPath => {
  let urn: string | undefined;
  let rest = text;
  if (text.toLowerCase().startsWith('urn:')) {
    const lower = text.toLowerCase();
    const match = knownUrns.filter((candidate) => lower.startsWith(`${candidate.toLowerCase()}:`)).sort((a, b) => b.length - a.length)[0];
    if (match === undefined) throw scimError(errorType, `Unknown schema in attribute path '${text.slice(0, 200)}'`);
    urn = match;
    rest = text.slice(match.length + 1);
  }
  const parts = rest.split('.');
  const [attr, sub] = parts;
  if (parts.length > 2 || attr === undefined || !namePattern.test(attr) || (sub !== undefined && !namePattern.test(sub))) {
    throw scimError(errorType, `Invalid attribute path '${text.slice(0, 200)}'`);
  }
  return { urn, attr, sub };
};

class Parser {
  index = 0;
  private comparisons = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly errorType: ScimType,
  ) {}

  fail(message: string): never {
    throw scimError(this.errorType, message);
  }

  peek(): Token | undefined {
    return this.tokens[this.index];
  }

  atEnd(): boolean {
    return this.index >= this.tokens.length;
  }

  isWord(word: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.text.toLowerCase() === word;
  }

  expect(kind: Token['kind'], what: string): Token {
    const token = this.peek();
    if (token?.kind !== kind) this.fail(`Expected ${what} ${this.where()}`);
    this.index += 1;
    return token;
  }

  where(): string {
    const token = this.peek();
    return token === undefined ? 'at the end of the expression' : `at position ${token.at}`;
  }

  /** FILTER with precedence or < and < not. */
  parseOr(depth: number, inValuePath: boolean): FilterNode {
    if (depth > maxDepth) this.fail(`Expression nested deeper than ${maxDepth} levels`);
    let left = this.parseAnd(depth, inValuePath);
    while (this.isWord('or')) {
      this.index += 1;
      left = { kind: 'or', left, right: this.parseAnd(depth, inValuePath) };
    }
    return left;
  }

  parseAnd(depth: number, inValuePath: boolean): FilterNode {
    let left = this.parseUnary(depth, inValuePath);
    while (this.isWord('and')) {
      this.index += 1;
      left = { kind: 'and', left, right: this.parseUnary(depth, inValuePath) };
    }
    return left;
  }

  parseUnary(depth: number, inValuePath: boolean): FilterNode {
    if (this.isWord('not') && this.tokens[this.index + 1]?.kind === 'lparen') {
      this.index += 1;
      return { kind: 'not', filter: this.parseGroup(depth, inValuePath) };
    }
    if (this.peek()?.kind === 'lparen') return this.parseGroup(depth, inValuePath);
    return this.parseAttrExpression(depth, inValuePath);
  }

  parseGroup(depth: number, inValuePath: boolean): FilterNode {
    this.expect('lparen', "'('");
    const inner = this.parseOr(depth + 1, inValuePath);
    this.expect('rparen', "')'");
    return inner;
  }

  parseAttrExpression(depth: number, inValuePath: boolean): FilterNode {
    const token = this.peek();
    if (token?.kind !== 'word') this.fail(`Expected an attribute name ${this.where()}`);
    this.index += 1;
    const path = parseAttrPath(token.text, this.errorType);
    if (this.peek()?.kind === 'lbracket') {
      if (inValuePath) this.fail('Value filters cannot be nested');
      if (path.sub !== undefined) this.fail(`Value filter on a sub-attribute '${token.text}'`);
      this.index += 1;
      const filter = this.parseOr(depth + 1, true);
      this.expect('rbracket', "']'");
      return { kind: 'valuePath', path, filter };
    }
    const opToken = this.peek();
    if (opToken?.kind !== 'word') this.fail(`Expected an operator after '${token.text}' ${this.where()}`);
    const op = opToken.text.toLowerCase();
    this.index += 1;
    this.comparisons += 1;
    if (this.comparisons > maxComparisons) {
      throw scimError('tooMany', `Filter has more than ${maxComparisons} comparisons; narrow it down`);
    }
    if (op === 'pr') return { kind: 'present', path };
    if (!(compareOps as readonly string[]).includes(op)) this.fail(`Unknown operator '${opToken.text.slice(0, 20)}'`);
    return { kind: 'compare', path, op: op as CompareOp, value: this.parseValue() };
  }

  parseValue(): CompValue {
    const token = this.peek();
    this.index += 1;
    if (token?.kind === 'string' || token?.kind === 'number') return token.value;
    if (token?.kind === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    this.index -= 1;
    return this.fail(`Expected a value (string, number, true, false or null) ${this.where()}`);
  }
}

/** Parses a filter (RFC 7644 3.4.2.2); throws scimType invalidFilter (or tooMany) on anything malformed. */
export const parseFilter = (source: string): FilterNode => {
  const parser = new Parser(tokenize(source, 'invalidFilter'), 'invalidFilter');
  if (parser.atEnd()) parser.fail('Empty filter');
  const node = parser.parseOr(0, false);
  if (!parser.atEnd()) parser.fail(`Unexpected input ${parser.where()}`);
  return node;
};

/** Parses a PATCH `path`; throws scimType invalidPath. */
export const parsePatchPath = (source: string): PatchPath => {
  const parser = new Parser(tokenize(source, 'invalidPath'), 'invalidPath');
  const first = parser.peek();
  if (first?.kind !== 'word') return parser.fail('Expected an attribute path');
  parser.index += 1;
  const path = parseAttrPath(first.text, 'invalidPath');
  let filter: FilterNode | undefined;
  let subAfterFilter: string | undefined;
  if (parser.peek()?.kind === 'lbracket') {
    if (path.sub !== undefined) parser.fail(`Value filter on a sub-attribute '${first.text.slice(0, 200)}'`);
    parser.index += 1;
    filter = parser.parseOr(1, true);
    parser.expect('rbracket', "']'");
    const tail = parser.peek();
    if (tail?.kind === 'word') {
      if (!/^\.[A-Za-z$][A-Za-z0-9_$-]*$/.test(tail.text)) parser.fail(`Invalid sub-attribute '${tail.text.slice(0, 100)}'`);
      subAfterFilter = tail.text.slice(1);
      parser.index += 1;
    }
  }
  if (!parser.atEnd()) parser.fail(`Unexpected input ${parser.where()}`);
  return { path, filter, subAfterFilter };
};
