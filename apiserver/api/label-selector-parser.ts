/**
 * The label selector string grammar (Kubernetes' labels.Parse), error for error:
 *
 *   selector    ::= requirement | requirement "," selector
 *   requirement ::= ["!"] KEY [ set-op "(" VALUES ")" | exact-op VALUE ]
 *   set-op      ::= "in" | "notin"        exact-op ::= "=" | "==" | "!=" | ">" | "<"
 *
 * Whitespace (space, tab, CR, LF) separates tokens. `in` and `notin` are keywords only where an
 * operator is expected; elsewhere they are ordinary identifiers (`in=notin` is valid).
 */

import type { LabelOperator, LabelRequirement } from './label-requirement.js';
import { compareStrings, createLabelRequirement, LabelOperators } from './label-requirement.js';
import { invalidValueMessage, validateLabelKey } from './label-validation.js';
import { SelectorParseError } from './selector-parse-error.js';

type TokenKind = 'end' | 'ident' | 'in' | 'notin' | 'not' | 'open' | 'close' | 'comma' | '=' | '==' | '!=' | '>' | '<';

interface Token {
  kind: TokenKind;
  text: string;
}

const SYMBOLS: Readonly<Record<string, TokenKind>> = {
  '!=': '!=',
  '==': '==',
  '=': '=',
  '!': 'not',
  '(': 'open',
  ')': 'close',
  ',': 'comma',
  '>': '>',
  '<': '<',
};
const isSymbol = (c: string): boolean => '=!(),><'.includes(c);
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** Splits the input into tokens; symbols take the longest match (`!=` before `!`). */
function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    while (pos < input.length && isSpace(input.charAt(pos))) pos++;
    if (pos >= input.length) break;
    const pair = input.slice(pos, pos + 2);
    const symbol = SYMBOLS[pair] !== undefined ? pair : input.charAt(pos);
    const kind = isSymbol(symbol.charAt(0)) ? SYMBOLS[symbol] : undefined;
    if (kind !== undefined) {
      tokens.push({ kind, text: symbol });
      pos += symbol.length;
      continue;
    }
    const start = pos;
    while (pos < input.length && !isSymbol(input.charAt(pos)) && !isSpace(input.charAt(pos))) pos++;
    const text = input.slice(start, pos);
    tokens.push({ kind: text === 'in' || text === 'notin' ? text : 'ident', text });
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

const BINARY_OPERATORS: Partial<Record<TokenKind, LabelOperator>> = {
  in: LabelOperators.In,
  notin: LabelOperators.NotIn,
  '=': LabelOperators.Equals,
  '==': LabelOperators.DoubleEquals,
  '!=': LabelOperators.NotEquals,
  '>': LabelOperators.GreaterThan,
  '<': LabelOperators.LessThan,
};
const EXPECTED_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

/** Where the parser stands decides whether `in`/`notin` are keywords. */
type Context = 'operator' | 'value';

class Parser {
  private pos = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const first = this.peek('value');
      if (first.kind === 'end') return requirements;
      if (first.kind !== 'ident' && first.kind !== 'not') {
        throw new SelectorParseError(`found '${first.text}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.requirement());
      const separator = this.next('value');
      if (separator.kind === 'end') return requirements;
      if (separator.kind !== 'comma') {
        throw new SelectorParseError(`found '${separator.text}', expected: ',' or 'end of string'`);
      }
      const after = this.peek('value');
      if (after.kind !== 'ident' && after.kind !== 'not') {
        throw new SelectorParseError(`found '${after.text}', expected: identifier after ','`);
      }
    }
  }

  private peek(context: Context): Token {
    const token = this.tokens[Math.min(this.pos, this.tokens.length - 1)] ?? { kind: 'end', text: '' };
    const isKeyword = token.kind === 'in' || token.kind === 'notin';
    return context === 'value' && isKeyword ? { kind: 'ident', text: token.text } : token;
  }

  private next(context: Context): Token {
    const token = this.peek(context);
    this.pos++;
    return token;
  }

  /** Every failure inside one requirement is reported as Kubernetes does: with a prefix. */
  private requirement(): LabelRequirement {
    try {
      return this.requirementBody();
    } catch (err) {
      if (err instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${err.message}`);
      throw err;
    }
  }

  private requirementBody(): LabelRequirement {
    let token = this.next('value');
    const negated = token.kind === 'not';
    if (negated) token = this.next('value');
    if (token.kind !== 'ident') throw new SelectorParseError(`found '${token.text}', expected: identifier`);
    const key = token.text;
    const keyErrors = validateLabelKey(key);
    // The parser validates against a nil field path, which Go prints as <nil>.
    if (keyErrors.length > 0) throw new SelectorParseError(invalidValueMessage('<nil>', key, keyErrors.join('; ')));
    if (negated) return createLabelRequirement(key, LabelOperators.DoesNotExist, []);
    const following = this.peek('value').kind;
    if (following === 'end' || following === 'comma') return createLabelRequirement(key, LabelOperators.Exists, []);
    const operator = this.operator();
    const isSet = operator === LabelOperators.In || operator === LabelOperators.NotIn;
    return createLabelRequirement(key, operator, isSet ? this.valueSet() : this.exactValue());
  }

  private operator(): LabelOperator {
    const token = this.next('operator');
    const operator = BINARY_OPERATORS[token.kind];
    if (operator === undefined) throw new SelectorParseError(`found '${token.text}', expected: ${EXPECTED_OPERATORS}`);
    return operator;
  }

  /** `( a, b, )`: empty members count as the empty value; the result is sorted and unique. */
  private valueSet(): string[] {
    const open = this.next('value');
    if (open.kind !== 'open') throw new SelectorParseError(`found '${open.text}' expected: '('`);
    const first = this.peek('value');
    if (first.kind === 'close') {
      this.next('value');
      return [''];
    }
    if (first.kind !== 'ident' && first.kind !== 'comma') {
      throw new SelectorParseError(`found '${first.text}', expected: ',', ')' or identifier`);
    }
    const values = this.valueList();
    this.next('value'); // the ')' that valueList stopped in front of
    return [...values].sort(compareStrings);
  }

  private valueList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const token = this.next('value');
      const following = this.peek('value');
      if (token.kind === 'ident') {
        values.add(token.text);
        if (following.kind === 'close') return values;
        if (following.kind !== 'comma') throw new SelectorParseError(`found '${following.text}', expected: ',' or ')'`);
      } else if (token.kind === 'comma') {
        // A comma with nothing before it, after it or between two commas stands for "".
        if (values.size === 0 || following.kind === 'close' || following.kind === 'comma') values.add('');
        if (following.kind === 'close') return values;
      } else {
        throw new SelectorParseError(`found '${token.text}', expected: ',', or identifier`);
      }
    }
  }

  /** The single value after =, ==, !=, > or <; nothing before a comma or the end means "". */
  private exactValue(): string[] {
    const following = this.peek('value');
    if (following.kind === 'end' || following.kind === 'comma') return [''];
    const token = this.next('value');
    if (token.kind !== 'ident') throw new SelectorParseError(`found '${token.text}', expected: identifier`);
    return [token.text];
  }
}

/** parseLabelRequirements parses a label selector string into validated requirements sorted
 * (stably) by key, as Kubernetes' labels.Parse does. The empty string yields no requirements.
 * Throws SelectorParseError worded as Kubernetes words it. */
export function parseLabelRequirements(text: string): LabelRequirement[] {
  const requirements = new Parser(tokenize(text)).parse();
  return requirements.sort((a, b) => compareStrings(a.key, b.key));
}
